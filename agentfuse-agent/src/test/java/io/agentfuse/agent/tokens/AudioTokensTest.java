package io.agentfuse.agent.tokens;

import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.Role;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/** Audio counted by its seconds at Gemini's 32 tokens a second, not by its bytes. */
class AudioTokensTest {

    /** {@code seconds} of WAV at {@code byteRate} bytes a second. */
    private static String wav(int seconds, int byteRate) {
        int samples = seconds * byteRate;
        ByteBuffer wav = ByteBuffer.allocate(44 + samples).order(ByteOrder.LITTLE_ENDIAN);
        wav.put("RIFF".getBytes()).putInt(36 + samples).put("WAVE".getBytes()).put("fmt ".getBytes()).putInt(16)
                .putShort((short) 1).putShort((short) 1).putInt(byteRate / 2).putInt(byteRate).putShort((short) 2)
                .putShort((short) 16).put("data".getBytes()).putInt(samples);
        return Base64.getEncoder().encodeToString(wav.array());
    }

    @Test
    void aMinuteOfWavIsGeminisPublished1920TokensWhateverItsSampleRate() {
        assertThat(AudioTokens.of("data:audio/wav;base64," + wav(60, 32_000))).isEqualTo(1_920);
        assertThat(AudioTokens.of("{\"url\":\"data:audio/wav;base64," + wav(60, 8_000) + "\"}")).isEqualTo(1_920);
    }

    @Test
    void otherFormatsAreGuessedFromTheirSizeAtALowBitrate() {
        String bytes = Base64.getEncoder().encodeToString(new byte[240_000]);
        assertThat(AudioTokens.of("data:audio/mp3;base64," + bytes)).isEqualTo(1_920); // 32 kbit/s: 60 s
        assertThat(AudioTokens.of("data:audio/ogg;base64," + bytes)).isEqualTo(3_840); // 16 kbit/s: 120 s
        assertThat(AudioTokens.of("data:audio/wav;base64," + bytes)).isEqualTo(480); // no header: 8 kHz 16-bit, 15 s
    }

    @Test
    void audioWhoseDataIsNotAtHandCountsAMinute() {
        assertThat(AudioTokens.of("gs://bucket/call.mp3")).isEqualTo(AudioTokens.UNKNOWN_SECONDS * 32);
    }

    @Test
    void aCounterCountsAnAudioBlockByItsSecondsNotItsBase64() {
        Message spoken = Message.of(Role.USER, new RawBlock(RawBlock.AUDIO, "{\"url\":\"data:audio/wav;base64," + wav(60, 32_000) + "\"}"));

        assertThat(TokenCounter.forModel("gemini-2.5-flash").countMessage(spoken)).isEqualTo(3 + 1_920);
        assertThat(TokenCounter.forModel("gpt-4o").upperBoundMessage(spoken)).isEqualTo(3 + 1_920);
    }

    @Test
    void readsTheBase64OfAudioHeldApartFromItsMediaType() {
        String minute = wav(60, 32_000);

        assertThat(AudioTokens.ofBase64("audio/wav", minute)).isEqualTo(1_920);
        assertThat(AudioTokens.ofBase64("audio/WAV", java.nio.CharBuffer.wrap("x" + minute, 1, 1 + minute.length())))
                .isEqualTo(1_920);
        assertThat(AudioTokens.ofBase64("audio/ogg", "A".repeat(320_000))).isEqualTo(3_840); // 16 kbit/s: 120 s
        assertThat(AudioTokens.ofBase64("audio/mp3", "")).isZero();
    }
}
