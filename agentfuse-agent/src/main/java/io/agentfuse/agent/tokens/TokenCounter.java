package io.agentfuse.agent.tokens;

import io.agentfuse.agent.conversation.ContentBlock;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.TextBlock;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;

/**
 * Measures text, messages and whole conversations in a model's tokens.
 *
 * <p>Only {@link #countText(String)} is abstract; the framing around it follows OpenAI's
 * published accounting for chat models, which is also a fair upper bound for other providers:
 * {@value #TOKENS_PER_MESSAGE} tokens per message for the role and delimiters, and
 * {@value #TOKENS_PER_REPLY} tokens that prime the reply. Tool calls count their id, name and
 * input; tool results their id, content and attachments; an image by its size in pixels, as the
 * counter's {@link #imageAccounting()} charges it ({@link ImageTokens}), at most {@value #IMAGE_TOKENS};
 * a document by its pages ({@link DocumentTokens}); audio by its seconds ({@link AudioTokens}); other
 * {@link RawBlock}s their JSON.
 *
 * <p>Which counter to use, in order of trust:
 * <ol>
 *   <li>the provider's reported {@code usage}, through {@link UsageAwareTokenCounter};</li>
 *   <li>the model's own encoding, through {@link TiktokenCounter} (OpenAI models);</li>
 *   <li>an estimate with a safety margin, through {@link EstimatingTokenCounter} (all others).</li>
 * </ol>
 * {@link #forModel(String)} picks between the last two, each behind a shared
 * {@link CachingTokenCounter}, and counts images as the model's family charges them
 * ({@link ImageAccounting#forModel}). Implementations must be thread-safe.
 *
 * <p><b>Upper bounds.</b> {@link #upperBoundText(String)} and the message and conversation bounds
 * built on it are never below the matching count and usually far cheaper, so a caller can settle
 * "well within the window" without counting. By default the bound is the count itself; a counter
 * that overrides {@link #countMessage} or {@link #countConversation} must override the matching
 * bound too.
 *
 * <pre>{@code
 * TokenCounter counter = TokenCounter.forModel("gpt-4o");
 * int used = counter.countConversation(conversation);
 * TokenCounter forTests = String::length;   // one token per character
 * }</pre>
 */
@FunctionalInterface
public interface TokenCounter {

    /** Tokens that frame each message: role and delimiters. */
    int TOKENS_PER_MESSAGE = 3;

    /** Tokens that prime the model's reply to a conversation. */
    int TOKENS_PER_REPLY = 3;

    /**
     * Tokens of one image ({@link RawBlock#IMAGE}) whose size in pixels is not known (a URL, a file,
     * a format {@link ImageTokens} does not read), and the most any image counts: providers charge
     * an image by its pixels, not by its encoding, and counted as the text of its base64 data a 1 MB
     * screenshot came to about 1.1 million tokens. A ceiling rather than a guess, since counting high
     * only compacts a little early: Claude charges about width × height / 750, and newer Claude models
     * take images up to about 2 576 pixels a side, some 4 800 tokens (third-party measurements, not
     * checked here); GPT-4o's high detail stays under 1 500. Gemini tiles very large images at 258
     * tokens per 768-pixel tile and can pass it.
     */
    int IMAGE_TOKENS = 4_800;

    /** The tokens in {@code text}, special-token markers counted as ordinary text. */
    int countText(String text);

    /** The tokens of {@code message}, including its framing. */
    default int countMessage(Message message) {
        int tokens = TOKENS_PER_MESSAGE;
        for (ContentBlock block : message.content()) {
            tokens += countBlock(block);
        }
        return tokens;
    }

    /** The tokens of every message of {@code conversation}, plus the reply priming. */
    default int countConversation(Conversation conversation) {
        int tokens = TOKENS_PER_REPLY;
        for (Message message : conversation.messages()) {
            tokens += countMessage(message);
        }
        return tokens;
    }

    /** The tokens of one content block, without message framing. */
    default int countBlock(ContentBlock block) {
        if (block instanceof TextBlock text) {
            return countText(text.text());
        }
        if (block instanceof ToolUseBlock use) {
            return countText(use.id()) + countText(use.name()) + countText(use.inputJson());
        }
        if (block instanceof ToolResultBlock result) {
            int tokens = countText(result.toolUseId()) + countText(result.content());
            for (RawBlock attachment : result.attachments()) {
                tokens += countBlock(attachment);
            }
            return tokens;
        }
        RawBlock raw = (RawBlock) block;
        int media = mediaTokens(raw);
        return media >= 0 ? media : countText(raw.json());
    }

    /**
     * How this counter counts an image's pixels: by default {@link ImageAccounting#CEILING}, the most
     * Claude's, OpenAI's and Gemini's accountings charge, since a counter may serve any model.
     */
    default ImageAccounting imageAccounting() {
        return ImageAccounting.CEILING;
    }

    /**
     * This counter's texts, with images counted by {@code images}: for a counter that serves one
     * model family. A counter that remembers counts ({@link CachingTokenCounter}) must wrap the
     * result, not be wrapped by it, or it answers counts of its own accounting.
     */
    default TokenCounter withImages(ImageAccounting images) {
        return images == imageAccounting() ? this : new ImageAccountingCounter(this, images);
    }

    /**
     * The tokens of an image, a document, audio or video, which providers charge by their pixels, pages
     * and seconds, not their bytes; {@code -1} for any other raw block, counted as its JSON text.
     */
    private int mediaTokens(RawBlock raw) {
        return switch (raw.type()) {
            case RawBlock.IMAGE -> ImageTokens.of(raw.json(), imageAccounting());
            case RawBlock.DOCUMENT -> DocumentTokens.of(raw.json());
            case RawBlock.AUDIO -> AudioTokens.of(raw.json());
            case RawBlock.VIDEO -> VideoTokens.of(raw.json());
            default -> -1;
        };
    }

    /**
     * At least {@link #countText(String) countText(text)}, ideally much cheaper to compute; by
     * default the count itself.
     */
    default int upperBoundText(String text) {
        return countText(text);
    }

    /**
     * {@link #upperBoundText(String) upperBoundText(text)} if it can be answered at once — a text
     * bounded before, or one short enough to bound in a few steps — else {@code -1}: for a caller
     * that must not spend time proportional to the text, such as a gateway's event loop, and asks
     * the full bound elsewhere when this cannot answer. By default never known at once.
     */
    default int knownUpperBoundText(String text) {
        return -1;
    }

    /** At least {@link #countMessage(Message) countMessage(message)}: the same framing over text bounds. */
    default int upperBoundMessage(Message message) {
        int tokens = TOKENS_PER_MESSAGE;
        for (ContentBlock block : message.content()) {
            tokens += upperBoundBlock(block);
        }
        return tokens;
    }

    /** At least {@link #countConversation(Conversation) countConversation(conversation)}. */
    default int upperBoundConversation(Conversation conversation) {
        int tokens = TOKENS_PER_REPLY;
        for (Message message : conversation.messages()) {
            tokens += upperBoundMessage(message);
        }
        return tokens;
    }

    /** At least {@link #countBlock(ContentBlock) countBlock(block)}. */
    default int upperBoundBlock(ContentBlock block) {
        if (block instanceof TextBlock text) {
            return upperBoundText(text.text());
        }
        if (block instanceof ToolUseBlock use) {
            return upperBoundText(use.id()) + upperBoundText(use.name()) + upperBoundText(use.inputJson());
        }
        if (block instanceof ToolResultBlock result) {
            int tokens = upperBoundText(result.toolUseId()) + upperBoundText(result.content());
            for (RawBlock attachment : result.attachments()) {
                tokens += upperBoundBlock(attachment);
            }
            return tokens;
        }
        RawBlock raw = (RawBlock) block;
        int media = mediaTokens(raw);
        return media >= 0 ? media : upperBoundText(raw.json());
    }

    /**
     * The best local counter for {@code model}: the exact encoding for OpenAI models
     * ({@code o200k_base} for the gpt-4o, gpt-4.1, gpt-4.5, gpt-5 and o-series families,
     * {@code cl100k_base} for gpt-4 and gpt-3.5), {@link EstimatingTokenCounter#newerClaude()} for
     * the Claude models whose tokenizer makes up to 1.35× the tokens of the earlier ones (Opus 4.7 and
     * later, {@link ModelName#hasClaudeTokenizerOf47}), and {@link EstimatingTokenCounter#standard()}
     * for every other model; images as the model's family charges them ({@link ImageAccounting#forModel}).
     * A provider prefix such as {@code "openai/"} is ignored ({@link ModelName}).
     *
     * <p>The counter returned is shared by every model of the same encoding and image accounting and
     * remembers the counts of recent messages ({@link CachingTokenCounter}), so a conversation resent
     * with one more turn costs the new turn only.
     */
    static TokenCounter forModel(String model) {
        ModelName name = ModelName.of(model);
        ImageAccounting images = ImageAccounting.forModel(name);
        if (name.hasClaudeTokenizerOf47()) {
            return SharedCounters.newerClaudeEstimate(images);
        }
        return OpenAiEncodings.forModel(name)
                .map(encoding -> SharedCounters.forEncoding(encoding, images))
                .orElseGet(() -> SharedCounters.estimate(images));
    }
}
