package io.agentfuse.agent.tokens;

import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.Role;
import org.junit.jupiter.api.Test;

import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/** Video counted by its seconds at Gemini's 263 tokens a second, not by its bytes, nor as nothing. */
class VideoTokensTest {

    /** 624 999 bytes (no base64 padding): ten seconds at the guessed 500 kbit/s. */
    private static final String TEN_SECONDS = Base64.getEncoder().encodeToString(new byte[624_999]);

    @Test
    void aVideosSecondsAreGuessedFromItsSizeAtALowBitrate() {
        assertThat(VideoTokens.ofBase64(TEN_SECONDS)).isEqualTo(2_630);
        assertThat(VideoTokens.of("data:video/mp4;base64," + TEN_SECONDS)).isEqualTo(2_630);
        assertThat(VideoTokens.of("{\"url\":\"data:video/mp4;base64," + TEN_SECONDS + "\"}")).isEqualTo(2_630);
    }

    @Test
    void aVideoWhoseDataIsNotAtHandCountsAMinute() {
        assertThat(VideoTokens.of("{\"url\":\"https://www.youtube.com/watch?v=abc\"}")).isEqualTo(60 * 263);
    }

    @Test
    void aCounterCountsAVideoBlockByItsSecondsNotItsBase64() {
        Message watched = Message.of(Role.USER, new RawBlock(RawBlock.VIDEO,
                "{\"url\":\"data:video/mp4;base64," + TEN_SECONDS + "\"}"));

        assertThat(TokenCounter.forModel("gemini-2.5-flash").countMessage(watched)).isEqualTo(3 + 2_630);
        assertThat(TokenCounter.forModel("gpt-4o").upperBoundMessage(watched)).isEqualTo(3 + 2_630);
    }
}
