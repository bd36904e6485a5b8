package io.agentfuse.agent.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.Role;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class TokenCounterTest {

    private static final String CHINESE = "你好，世界";   // o200k: 3 tokens, cl100k: 6

    private final TokenCounter characters = String::length;

    @Test
    void framesEachMessageWithThreeTokens() {
        assertThat(TiktokenCounter.o200k().countMessage(Message.user("hello world"))).isEqualTo(2 + 3);
    }

    @Test
    void addsTheReplyPrimingToAWholeConversation() {
        Conversation conversation = Conversation.of(Message.system("hello world"), Message.user("hello world"));

        assertThat(TiktokenCounter.o200k().countConversation(conversation)).isEqualTo(3 + (2 + 3) * 2);
    }

    @Test
    void countsTheIdNameAndInputOfAToolCall() {
        Message call = Message.of(Role.ASSISTANT, new ToolUseBlock("id1", "Bash", "{\"a\":1}"));

        assertThat(characters.countMessage(call)).isEqualTo(3 + 3 + 4 + 7);
    }

    @Test
    void countsTheIdAndContentOfAToolResultAndTheJsonOfARawBlock() {
        Message result = Message.of(Role.TOOL, new ToolResultBlock("id1", "done", false));
        Message found = Message.of(Role.USER, new RawBlock("search_result", "{\"type\":\"hit\"}"));

        assertThat(characters.countMessage(result)).isEqualTo(3 + 3 + 4);
        assertThat(characters.countMessage(found)).isEqualTo(3 + 14);
    }

    @Test
    void countsAnImageAsTheTokensOfAnImageWhateverItsBytes() {
        // A 1 MB screenshot as a data URL: counted as the text of its base64, about 1.1 million tokens.
        String screenshot = "{\"url\":\"data:image/png;base64," + "iVBORw0KGgo".repeat(120_000) + "\"}";
        Message image = Message.of(Role.USER, new RawBlock(RawBlock.IMAGE, screenshot));

        for (TokenCounter counter : List.of(characters, TokenCounter.forModel("gpt-4o"), TokenCounter.forModel("claude-sonnet-4-5"))) {
            // Its size is not read (no IHDR): what the model's family charges an image of any size.
            int tokens = counter.imageAccounting().unknownSize();
            assertThat(counter.countMessage(image)).as(counter.toString()).isEqualTo(3 + tokens);
            assertThat(counter.upperBoundMessage(image)).as(counter.toString()).isGreaterThanOrEqualTo(3 + tokens);
        }
    }

    @Test
    void countsTheImagesAToolResultReturnedAsImagesNotAsTheirBytes() {
        // A screenshot tool's answer: a line of text and a 1 MB PNG beside it.
        String screenshot = "{\"url\":\"data:image/png;base64," + "iVBORw0KGgo".repeat(120_000) + "\"}";
        Message result = Message.of(Role.USER, new ToolResultBlock("id1", "done", false,
                List.of(new RawBlock(RawBlock.IMAGE, screenshot))));

        for (TokenCounter counter : List.of(characters, TokenCounter.forModel("gpt-4o"), TokenCounter.forModel("claude-sonnet-4-5"))) {
            int text = counter.countText("id1") + counter.countText("done");
            int image = counter.imageAccounting().unknownSize();
            assertThat(counter.countMessage(result)).as(counter.toString()).isEqualTo(3 + text + image);
            assertThat(counter.upperBoundMessage(result)).as(counter.toString()).isGreaterThanOrEqualTo(3 + text + image);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpt-4o", "gpt-4o-mini", "openai/gpt-4o-2024-08-06", "gpt-4.1", "GPT-5", "gpt-5-mini", "o1",
        "o3-mini", "o4-mini", "chatgpt-4o-latest"})
    void usesO200kForTheNewerOpenAiFamilies(String model) {
        assertThat(TokenCounter.forModel(model).countText(CHINESE)).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpt-4", "gpt-4-turbo", "gpt-4-0613", "gpt-3.5-turbo", "azure/gpt-35-turbo"})
    void usesCl100kForGpt4AndGpt35(String model) {
        assertThat(TokenCounter.forModel(model).countText(CHINESE)).isEqualTo(6);
    }

    @ParameterizedTest
    @ValueSource(strings = {"claude-sonnet-4", "claude-haiku-4", "gemini-2.5-pro", "llama-3.1-70b", "o10-custom", "gpt-40"})
    void estimatesEveryOtherModelWithCl100kAndAFifteenPercentMargin(String model) {
        TokenCounter base = ((CachingTokenCounter) TokenCounter.forModel(model)).base();
        assertThat(base instanceof ImageAccountingCounter images ? images.base() : base).isInstanceOf(EstimatingTokenCounter.class);
        assertThat(TokenCounter.forModel(model).countText(CHINESE)).isEqualTo(7);   // ceil(6 × 1.15)
    }
}
