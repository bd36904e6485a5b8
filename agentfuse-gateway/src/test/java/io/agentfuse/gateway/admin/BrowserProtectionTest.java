package io.agentfuse.gateway.admin;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard and every admin answer — reads, refusals, unknown admin paths — tell the browser
 * not to frame them, not to sniff them, and what may run: the admin API's data nothing, the
 * dashboard exactly its own inline script and style. (That the dashboard still works under its
 * policy is {@code DashboardBrowserTest}'s, in a real Chromium.)
 */
class BrowserProtectionTest {

    private static GatewayHarness harness;

    @BeforeAll
    static void start() {
        harness = GatewayHarness.start();
    }

    @AfterAll
    static void stop() {
        harness.close();
    }

    @Test
    void everyAdminAnswerForbidsFramingSniffingAndAnythingRunning() {
        List<Reply> answers = List.of(
                harness.client.get("/admin/breakers"),
                harness.client.get("/admin/stats"),
                harness.client.send(HttpMethod.POST, "/admin/breakers/model:gpt-4o-mini/open", Buffer.buffer(), Map.of()),
                harness.client.send(HttpMethod.POST, "/admin/reload", Buffer.buffer(), Map.of()),
                harness.client.get("/admin/no-such-thing"));

        assertThat(answers).extracting(Reply::status).containsExactly(200, 200, 401, 401, 404);
        assertThat(answers).allSatisfy(answer -> {
            assertThat(answer.header("x-frame-options")).isEqualTo("DENY");
            assertThat(answer.header("x-content-type-options")).isEqualTo("nosniff");
            assertThat(answer.header("content-security-policy")).startsWith("default-src 'none'").contains("frame-ancestors 'none'");
        });
    }

    @Test
    void theDashboardAllowsExactlyItsOwnScriptAndStyleAndCannotBeFramed() throws Exception {
        Reply page = harness.client.get("/");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("x-frame-options")).isEqualTo("DENY");
        assertThat(page.header("x-content-type-options")).isEqualTo("nosniff");
        String policy = page.header("content-security-policy");
        assertThat(policy).contains("default-src 'none'", "frame-ancestors 'none'", "connect-src 'self'")
                .doesNotContain("unsafe-inline").doesNotContain("unsafe-eval");
        assertThat(policy).contains("script-src 'sha256-" + sha256(inner(page.body(), "script")) + "'")
                .contains("style-src 'sha256-" + sha256(inner(page.body(), "style")) + "'");
    }

    private static String inner(String html, String tag) {
        Matcher block = Pattern.compile("<" + tag + ">(.*?)</" + tag + ">", Pattern.DOTALL).matcher(html);
        assertThat(block.find()).as("the page has an inline " + tag).isTrue();
        return block.group(1);
    }

    private static String sha256(String text) throws Exception {
        return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
