package io.agentfuse.agent.tokens;

import java.util.List;
import java.util.Map;

/**
 * How a model family charges an image for its pixels, as its vendor publishes it: the one place that
 * decides which accounting a model's images are counted by ({@link #forModel}). A model whose
 * accounting is not known here, and a counter that serves any model, count by {@link #CEILING}, the
 * most Claude's, OpenAI's and Gemini's charge. Every count is at most {@link TokenCounter#IMAGE_TOKENS},
 * which is also what an image of unknown size counts ({@link #unknownSize}) unless the family charges
 * less whatever the size.
 *
 * <p>Why per family: the ceiling counts a 64 × 64 icon 1 120 tokens (Gemini 3's fixed charge), Claude
 * 9; a hundred icons to a Claude model were refused 413 as overflowing a 100 000-token window they
 * fill less than 1 % of. Immutable and thread-safe.
 *
 * <pre>{@code
 * ImageAccounting.forModel("claude-sonnet-4-5").tokens(64, 64);  // 9
 * ImageAccounting.forModel("my-deployment");                     // CEILING
 * }</pre>
 */
public enum ImageAccounting {

    /**
     * Claude: about width × height / 750 by Anthropic's table (1 000 × 1 000 ≈ 1 334), and one token per
     * 28-pixel patch on the models from Opus 4.7 on (measured, not in the table); the higher of the two.
     * Claude scales a larger image down (to 1 568 pixels a side and ~1 600 tokens, 2 576 and ~4 784 on
     * the newer models), which the cap of {@link TokenCounter#IMAGE_TOKENS} covers.
     */
    CLAUDE {
        @Override
        long charge(long width, long height) {
            return Math.max(ceilDiv(width * height, 750), ceilDiv(width, 28) * ceilDiv(height, 28));
        }
    },
    /**
     * OpenAI's tiles at high detail (GPT-4o, GPT-4.1, GPT-4.5, GPT-5, o1, o3): the image fitted into
     * 2 048 × 2 048, its shorter side brought down to 768, then 85 tokens and 170 per 512-pixel tile —
     * GPT-5's 70 and 140 and the o-series' 75 and 150 stay below. At most 1 445 (eight tiles).
     */
    OPENAI_TILES {
        @Override
        long charge(long width, long height) {
            double scale = Math.min(1.0, 2048.0 / Math.max(width, height));
            double w = width * scale;
            double h = height * scale;
            scale = Math.min(1.0, 768.0 / Math.min(w, h));
            long tiles = (long) Math.ceil(w * scale / 512) * (long) Math.ceil(h * scale / 512);
            return 85 + 170 * tiles;
        }

        @Override
        public int unknownSize() {
            return 85 + 170 * 8;
        }
    },
    /** OpenAI's patches ({@link #patches}) times 1.62: gpt-4.1-mini, gpt-5-mini. */
    OPENAI_PATCHES_MINI(1.62),
    /** OpenAI's patches times 1.72: o4-mini. */
    OPENAI_PATCHES_O4_MINI(1.72),
    /** OpenAI's patches times 2.46: gpt-4.1-nano, gpt-5-nano. */
    OPENAI_PATCHES_NANO(2.46),
    /**
     * Gemini before 3: 258 tokens for an image within 384 × 384, else 258 per 768-pixel tile it is
     * cut into.
     */
    GEMINI_TILES {
        @Override
        long charge(long width, long height) {
            return width <= 384 && height <= 384 ? 258 : 258 * ceilDiv(width, 768) * ceilDiv(height, 768);
        }
    },
    /**
     * Gemini 3 on: a fixed charge per image by its media resolution, whatever its size; 1 120 at high,
     * the default for images.
     */
    GEMINI_FIXED {
        @Override
        long charge(long width, long height) {
            return 1_120;
        }

        @Override
        public int unknownSize() {
            return 1_120;
        }
    },
    /**
     * Amazon Nova (on Bedrock): no formula is published, only a table of sizes (900 × 450 about 800
     * tokens, 900 × 900 about 1 300, 1 400 × 900 about 1 800, 1 800 × 900 about 2 400, 1 300 × 1 300
     * about 2 600), and a smaller image is scaled up until a side reaches 896 pixels. Counted at one
     * token per 500 pixels after that scaling, at or above every entry of the table.
     */
    NOVA {
        @Override
        long charge(long width, long height) {
            double scale = Math.max(1.0, 896.0 / Math.max(width, height));
            return (long) Math.ceil(width * scale * (height * scale) / 500);
        }
    },
    /**
     * The most Claude's, OpenAI's and Gemini's accountings charge: for a model whose accounting is not
     * known. Not Nova's, whose models always say so in their names, and whose scaling up of a small image
     * would raise every unknown model's count of an icon by half.
     */
    CEILING {
        @Override
        long charge(long width, long height) {
            long most = 0;
            for (ImageAccounting accounting : values()) {
                if (accounting != this && accounting != NOVA) {
                    most = Math.max(most, accounting.charge(width, height));
                }
            }
            return most;
        }
    };

    /** OpenAI's patch models, looked up before the tile models whose names they start with. */
    private static final List<Map.Entry<String, ImageAccounting>> OPENAI_FAMILIES = List.of(
            Map.entry("gpt-4.1-mini", OPENAI_PATCHES_MINI), Map.entry("gpt-5-mini", OPENAI_PATCHES_MINI),
            Map.entry("gpt-4.1-nano", OPENAI_PATCHES_NANO), Map.entry("gpt-5-nano", OPENAI_PATCHES_NANO),
            Map.entry("o4-mini", OPENAI_PATCHES_O4_MINI),
            // Bills 2 833 and 5 667 per tile, past the cap whatever the size: the ceiling's count, not the tiles'.
            Map.entry("gpt-4o-mini", CEILING),
            Map.entry("gpt-4o", OPENAI_TILES), Map.entry("chatgpt-4o", OPENAI_TILES), Map.entry("gpt-4.1", OPENAI_TILES),
            Map.entry("gpt-4.5", OPENAI_TILES), Map.entry("gpt-4-turbo", OPENAI_TILES), Map.entry("gpt-5", OPENAI_TILES),
            Map.entry("o1", OPENAI_TILES), Map.entry("o3", OPENAI_TILES));

    /** The most 32-pixel patches OpenAI's patch accounting takes of an image. */
    private static final int MAX_PATCHES = 1_536;

    private final double multiplier;

    ImageAccounting() {
        this(0);
    }

    ImageAccounting(double multiplier) {
        this.multiplier = multiplier;
    }

    /**
     * The accounting of {@code model}'s family ({@link ModelName}): Claude on any platform, Amazon Nova,
     * OpenAI's tiled and patch models by name (a newer model, whose accounting may differ, is not one
     * of them), Gemini before 3 and from 3 on; {@link #CEILING} for any other.
     */
    public static ImageAccounting forModel(String model) {
        return forModel(ModelName.of(model));
    }

    static ImageAccounting forModel(ModelName name) {
        if (name.isClaude()) {
            return CLAUDE;
        }
        if (name.isNova()) {
            return NOVA;
        }
        if (name.isGemini()) {
            return name.isGeminiBefore3() ? GEMINI_TILES : GEMINI_FIXED;
        }
        for (Map.Entry<String, ImageAccounting> family : OPENAI_FAMILIES) {
            if (name.isOf(family.getKey())) {
                return family.getValue();
            }
        }
        return CEILING;
    }

    /** The tokens of an image of {@code width} × {@code height} pixels (both at least 1). */
    public int tokens(long width, long height) {
        return (int) Math.min(charge(width, height), TokenCounter.IMAGE_TOKENS);
    }

    /** The tokens of an image whose size is not known (a URL, a file, a format not read here). */
    public int unknownSize() {
        return multiplier > 0 ? (int) Math.ceil(MAX_PATCHES * multiplier) : TokenCounter.IMAGE_TOKENS;
    }

    /** What the family charges, before the cap. */
    long charge(long width, long height) {
        return (long) Math.ceil(patches(width, height) * multiplier);
    }

    /**
     * OpenAI's 32-pixel patches of an image: past {@value #MAX_PATCHES}, the image is scaled down to
     * about that many, then a little more so that its width is a whole number of patches.
     */
    static long patches(long width, long height) {
        long patches = ceilDiv(width, 32) * ceilDiv(height, 32);
        if (patches <= MAX_PATCHES) {
            return patches;
        }
        double shrink = Math.sqrt(MAX_PATCHES * 32.0 * 32.0 / ((double) width * height));
        double w = width * shrink / 32;
        double h = height * shrink / 32;
        double whole = Math.floor(w) / w;
        return Math.min(MAX_PATCHES, (long) Math.ceil(w * whole - 1e-9) * (long) Math.ceil(h * whole - 1e-9));
    }

    static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
