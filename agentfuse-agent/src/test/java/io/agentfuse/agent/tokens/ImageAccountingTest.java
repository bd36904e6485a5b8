package io.agentfuse.agent.tokens;

import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.Role;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;

import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;

/** Each family's image accounting against the examples its vendor publishes, and which models it serves. */
class ImageAccountingTest {

    @Test
    void claudeChargesTheAreaOver750AsAnthropicsTableDoes() {
        assertThat(ImageAccounting.CLAUDE.tokens(1000, 1000)).isEqualTo(1_334);
        assertThat(ImageAccounting.CLAUDE.tokens(1092, 1092)).isEqualTo(1_590);
        // The table says ~54 for 200 x 200; the newer models charge a token per 28-pixel patch, 8 x 8, the higher.
        assertThat(ImageAccounting.CLAUDE.tokens(200, 200)).isEqualTo(64);
        // Past the cap, which covers what Claude charges once it has scaled an image down.
        assertThat(ImageAccounting.CLAUDE.tokens(2356, 1530)).isEqualTo(TokenCounter.IMAGE_TOKENS);
        assertThat(ImageAccounting.CLAUDE.tokens(64, 64)).isEqualTo(9);
    }

    @Test
    void openAiTilesAreOpenAisHighDetailExamples() {
        assertThat(ImageAccounting.OPENAI_TILES.tokens(1024, 1024)).isEqualTo(765);
        assertThat(ImageAccounting.OPENAI_TILES.tokens(2048, 4096)).isEqualTo(1_105);
        assertThat(ImageAccounting.OPENAI_TILES.tokens(64, 64)).isEqualTo(255);
        assertThat(ImageAccounting.OPENAI_TILES.unknownSize()).isEqualTo(1_445);
    }

    @Test
    void openAiPatchesAreOpenAisExamplesTimesEachModelsMultiplier() {
        assertThat(ImageAccounting.patches(1024, 1024)).isEqualTo(1_024);
        assertThat(ImageAccounting.patches(1800, 2400)).isEqualTo(1_452); // scaled down below 1 536
        assertThat(ImageAccounting.OPENAI_PATCHES_MINI.tokens(1024, 1024)).isEqualTo(1_659); // x 1.62
        assertThat(ImageAccounting.OPENAI_PATCHES_NANO.tokens(1800, 2400)).isEqualTo(3_572); // x 2.46
        assertThat(ImageAccounting.OPENAI_PATCHES_O4_MINI.tokens(1024, 1024)).isEqualTo(1_762); // x 1.72
        assertThat(ImageAccounting.OPENAI_PATCHES_NANO.unknownSize()).isEqualTo(3_779);
    }

    @Test
    void geminiChargesTilesBefore3AndAFixedAmountFrom3On() {
        assertThat(ImageAccounting.GEMINI_TILES.tokens(384, 384)).isEqualTo(258);
        assertThat(ImageAccounting.GEMINI_TILES.tokens(1600, 900)).isEqualTo(258 * 3 * 2);
        assertThat(ImageAccounting.GEMINI_FIXED.tokens(64, 64)).isEqualTo(1_120);
        assertThat(ImageAccounting.GEMINI_FIXED.tokens(4000, 3000)).isEqualTo(1_120);
        assertThat(ImageAccounting.GEMINI_FIXED.unknownSize()).isEqualTo(1_120);
    }

    @Test
    void novaIsAtOrAboveEachSizeOfAmazonsTableAndScalesSmallImagesUp() {
        assertThat(ImageAccounting.NOVA.tokens(900, 450)).isBetween(800, 900);
        assertThat(ImageAccounting.NOVA.tokens(900, 900)).isBetween(1_300, 1_700);
        assertThat(ImageAccounting.NOVA.tokens(1400, 900)).isBetween(1_800, 2_600);
        assertThat(ImageAccounting.NOVA.tokens(1800, 900)).isBetween(2_400, 3_300);
        assertThat(ImageAccounting.NOVA.tokens(1300, 1300)).isBetween(2_600, 3_400);
        assertThat(ImageAccounting.NOVA.tokens(64, 64)).isEqualTo(ImageAccounting.NOVA.tokens(896, 896));
    }

    @Test
    void theCeilingIsTheMostOfClaudesOpenAisAndGeminisAndNeverPastTheCap() {
        for (long[] size : new long[][] {{64, 64}, {300, 200}, {1280, 800}, {1920, 1080}, {1800, 1800}, {9000, 300}}) {
            int most = 0;
            for (ImageAccounting accounting : ImageAccounting.values()) {
                most = accounting == ImageAccounting.NOVA ? most : Math.max(most, accounting.tokens(size[0], size[1]));
            }
            assertThat(ImageAccounting.CEILING.tokens(size[0], size[1])).isEqualTo(most);
        }
        assertThat(ImageAccounting.CEILING.tokens(20_000, 20_000)).isEqualTo(TokenCounter.IMAGE_TOKENS);
        assertThat(ImageAccounting.CEILING.unknownSize()).isEqualTo(TokenCounter.IMAGE_TOKENS);
    }

    @ParameterizedTest
    @CsvSource({
            "claude-sonnet-4-5, CLAUDE", "anthropic.claude-3-5-sonnet-20240620-v1:0, CLAUDE",
            "us.anthropic.claude-sonnet-4-20250514-v1:0, CLAUDE", "global.anthropic.claude-sonnet-4-5-20250929-v1:0, CLAUDE",
            "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us-gov.anthropic.claude-3-haiku-20240307-v1:0, CLAUDE", "claude-sonnet-4@20250514, CLAUDE",
            "openrouter/anthropic/claude-opus-4, CLAUDE",
            "gpt-4o, OPENAI_TILES", "gpt-4o-2024-08-06, OPENAI_TILES", "gpt-4.1, OPENAI_TILES", "gpt-5, OPENAI_TILES",
            "o3, OPENAI_TILES", "openai/gpt-4.1-2025-04-14, OPENAI_TILES",
            "gpt-4.1-mini, OPENAI_PATCHES_MINI", "gpt-5-mini-2025-08-07, OPENAI_PATCHES_MINI",
            "gpt-4.1-nano, OPENAI_PATCHES_NANO", "o4-mini, OPENAI_PATCHES_O4_MINI",
            "gemini-2.5-pro, GEMINI_TILES", "models/gemini-1.5-flash, GEMINI_TILES",
            "gemini-3-pro-preview, GEMINI_FIXED",
            "amazon.nova-pro-v1:0, NOVA", "us.amazon.nova-lite-v1:0, NOVA",
            "gpt-4o-mini, CEILING", "gpt-5.1, CEILING", "my-deployment, CEILING",
            "llama-3.1-70b, CEILING"})
    void eachModelIsCountedByItsFamilysAccounting(String model, ImageAccounting expected) {
        assertThat(ImageAccounting.forModel(model)).isEqualTo(expected);
    }

    @Test
    void aModelsCounterCountsItsImagesAsItsFamilyCharges() {
        String icon = "{\"url\":\"data:image/png;base64," + png(64, 64) + "\"}";
        Message icons = Message.of(Role.USER, new RawBlock(RawBlock.IMAGE, icon));

        assertThat(TokenCounter.forModel("claude-sonnet-4-5").countMessage(icons)).isEqualTo(3 + 9);
        assertThat(TokenCounter.forModel("anthropic.claude-sonnet-4-20250514-v1:0").upperBoundMessage(icons)).isEqualTo(3 + 9);
        assertThat(TokenCounter.forModel("gpt-4.1").countMessage(icons)).isEqualTo(3 + 255);
        assertThat(TokenCounter.forModel("my-deployment").countMessage(icons)).isEqualTo(3 + 1_120);
        assertThat(TokenCounter.forModel("claude-sonnet-4-5").imageAccounting()).isEqualTo(ImageAccounting.CLAUDE);
    }

    private static String png(int width, int height) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB), "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(out.toByteArray());
    }
}
