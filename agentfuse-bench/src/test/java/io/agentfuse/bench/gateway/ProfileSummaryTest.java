package io.agentfuse.bench.gateway;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ProfileSummaryTest {

    @Test
    void countsTheEventLoopsSelfTimeByPackageAndTheInclusiveTimeOfThePrefixedFrames() {
        ProfileSummary summary = new ProfileSummary("io/agentfuse");
        summary.add("[vert.x-eventloop-thread-0 tid=1];java/lang/Thread.run;io/agentfuse/gateway/A.run;"
                + "io/agentfuse/gateway/B.call;io/netty/channel/C.write;tcp_sendmsg_[k] 6");
        summary.add("[vert.x-eventloop-thread-1 tid=2];java/lang/Thread.run;io/agentfuse/gateway/A.run 2");
        summary.add("[C2 CompilerThread0 tid=3];io/agentfuse/gateway/A.run 50");

        String printed = print(summary);

        assertThat(printed).startsWith("8 samples on the event loops")
                .contains(" 75.0%  kernel", " 25.0%  io/agentfuse/gateway", "100.0%  io/agentfuse/gateway/A.run",
                        " 75.0%  io/agentfuse/gateway/B.call")
                .doesNotContain("C2");
    }

    @Test
    void namesAFramesPackageThreeLevelsDeep() {
        assertThat(ProfileSummary.packageOf("io/netty/channel/epoll/Native.epollWait")).isEqualTo("io/netty/channel");
        assertThat(ProfileSummary.packageOf("java/lang/String.equals")).isEqualTo("java/lang");
        assertThat(ProfileSummary.packageOf("do_syscall_64_[k]")).isEqualTo("kernel");
        assertThat(ProfileSummary.packageOf("writev")).isEqualTo("native");
    }

    private static String print(ProfileSummary summary) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        summary.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
