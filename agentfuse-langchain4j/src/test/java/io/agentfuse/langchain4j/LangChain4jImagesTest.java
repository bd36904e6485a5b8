package io.agentfuse.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import io.agentfuse.agent.conversation.ContentBlock;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.tokens.EstimatingTokenCounter;
import io.agentfuse.agent.tokens.TokenCounter;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * A LangChain4j image counts by its size in pixels, read from LangChain4j's own rendering of it,
 * as the gateway's images do; one given by its URL counts as an image of unknown size.
 */
class LangChain4jImagesTest {

    @Test
    void aBase64ImageCountsByItsPixels() throws IOException {
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(new BufferedImage(1280, 800, BufferedImage.TYPE_INT_RGB), "png", png);
        UserMessage screenshot = UserMessage.from(TextContent.from("Where is the button?"),
                ImageContent.from(Base64.getEncoder().encodeToString(png.toByteArray()), "image/png"));
        UserMessage linked = UserMessage.from(ImageContent.from("https://example.com/screenshot.png"));

        TokenCounter anyModel = EstimatingTokenCounter.standard();
        assertThat(imageTokens(screenshot, anyModel)).isEqualTo(2_460); // the ceiling of the published accountings for 1280 x 800
        assertThat(imageTokens(linked, anyModel)).isEqualTo(TokenCounter.IMAGE_TOKENS);
        // A model's own counter charges as its family does: six of GPT-4o's tiles, eight at most.
        assertThat(imageTokens(screenshot, TokenCounter.forModel("gpt-4o"))).isEqualTo(85 + 6 * 170);
        assertThat(imageTokens(linked, TokenCounter.forModel("gpt-4o"))).isEqualTo(85 + 8 * 170);
    }

    private static int imageTokens(UserMessage message, TokenCounter counter) {
        List<ContentBlock> blocks = LangChain4jConversations.toConversation(List.of(message)).messages().get(0).content();
        ContentBlock image = blocks.stream().filter(block -> block instanceof RawBlock raw && RawBlock.IMAGE.equals(raw.type()))
                .findFirst().orElseThrow();
        return counter.countBlock(image);
    }
}
