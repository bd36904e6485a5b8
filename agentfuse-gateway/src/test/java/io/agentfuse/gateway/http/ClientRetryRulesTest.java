package io.agentfuse.gateway.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which clients read {@code x-should-retry} and which only the status, told apart by the headers they send. */
class ClientRetryRulesTest {

    @Test
    void codexAndTheVercelAiSdkAreToldApartFromClientsThatReadShouldRetry() {
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap().add("originator", "codex_exec")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "ai/7.0.173 ai-sdk-provider-utils/5.0.81 node.js/v20.20.2")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "claude-cli/2.1.332 (external, sdk-cli)").add("x-stainless-lang", "js")))
                .isEqualTo(ClientRetryRules.SHOULD_RETRY_HEADER);
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "undici").add("anthropic-version", "2023-06-01")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY); // OpenClaw
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()))
                .isEqualTo(ClientRetryRules.SHOULD_RETRY_HEADER);
    }

    @Test
    void langChainJsIsToldApartByItsOpenAiUserAgentAndItsAnthropicBrowserAccessHeader() {
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "langchainjs-openai/1.0.0 ((node/v20.20.2; linux; x64))").add("x-stainless-lang", "js")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "Anthropic/JS 0.122.0").add("x-stainless-lang", "js")
                .add("anthropic-dangerous-direct-browser-access", "true")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
        // Claude Code sends the browser-access header too, under its own user agent: it reads x-should-retry.
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "claude-cli/2.1.332 (external, sdk-cli)").add("x-stainless-lang", "js")
                .add("anthropic-dangerous-direct-browser-access", "true")))
                .isEqualTo(ClientRetryRules.SHOULD_RETRY_HEADER);
        // A browser app on the Anthropic SDK sends its page's origin: it reads x-should-retry.
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "Anthropic/JS 0.122.0").add("anthropic-dangerous-direct-browser-access", "true")
                .add("origin", "https://app.example.com")))
                .isEqualTo(ClientRetryRules.SHOULD_RETRY_HEADER);
    }

    @Test
    void theGoogleGenAiSdksAndGeminiCliReadOnlyTheStatus() {
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "google-genai-sdk/2.3.0 gl-java/17.0.12")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "GeminiCLI/0.61.0 (linux; x64)")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "node").add("x-goog-api-client", "google-genai-sdk/1.30.0 gl-node/v22.1.0")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
    }
}
