package io.agentfuse.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

class RedisRefusalTest {

    @Test
    void anErrorAboutWhatAKeyHoldsIsARefusalOfThatCall() {
        String refusal = RedisRefusal.ofOneCall(new CompletionException(new RedisCommandExecutionException(
                "WRONGTYPE Operation against a key holding the wrong kind of value script: 8b1f, on @user_script:5.")));

        assertThat(refusal).startsWith("WRONGTYPE Operation against a key");
        assertThat(RedisRefusal.code(refusal)).isEqualTo("WRONGTYPE");
        assertThat(RedisRefusal.ofOneCall(new RedisCommandExecutionException("ERR user_script:9: attempt to compare nil")))
                .startsWith("ERR");
    }

    @Test
    void aServerThatCannotTakeCallsNowOrThatDoesNotAnswerIsNoRefusalOfOneCall() {
        for (String error : new String[] {"LOADING Redis is loading the dataset in memory", "READONLY You can't write against a"
                + " read only replica.", "BUSY Redis is busy running a script", "OOM command not allowed when used memory >"
                + " 'maxmemory'.", "MISCONF Redis is configured to save RDB snapshots", "NOAUTH Authentication required."}) {
            assertThat(RedisRefusal.ofOneCall(new RedisCommandExecutionException(error))).as(error).isNull();
        }
        assertThat(RedisRefusal.ofOneCall(new RedisCommandTimeoutException("Command timed out"))).isNull();
        assertThat(RedisRefusal.ofOneCall(new RedisConnectionException("Unable to connect"))).isNull();
        assertThat(RedisRefusal.ofOneCall(new IllegalStateException("not connected to Redis"))).isNull();
    }

    @Test
    void redisWordsAreQuotedOnOneShortLine() {
        String refusal = RedisRefusal.ofOneCall(new RedisCommandExecutionException("ERR " + "x".repeat(500) + "\nsecond line"));

        assertThat(refusal).hasSizeLessThanOrEqualTo(161).doesNotContain("\n").doesNotContain("second line");
    }
}
