package io.agentfuse.core;

import io.agentfuse.core.timeout.CallTimeoutException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class OutcomeClassifierTest {

    private final OutcomeClassifier classifier = OutcomeClassifier.defaults();

    static Stream<Arguments> statuses() {
        return Stream.of(
                arguments(200, Outcome.SUCCESS),
                arguments(204, Outcome.SUCCESS),
                arguments(101, Outcome.ERROR),
                arguments(301, Outcome.ERROR),
                arguments(302, Outcome.ERROR),
                arguments(308, Outcome.ERROR),
                arguments(400, Outcome.CLIENT_ERROR),
                arguments(401, Outcome.CLIENT_ERROR),
                arguments(404, Outcome.CLIENT_ERROR),
                arguments(408, Outcome.TIMEOUT),
                arguments(409, Outcome.CLIENT_ERROR),
                arguments(422, Outcome.CLIENT_ERROR),
                arguments(429, Outcome.RATE_LIMITED),
                arguments(500, Outcome.SERVER_ERROR),
                arguments(502, Outcome.SERVER_ERROR),
                arguments(503, Outcome.SERVER_ERROR),
                arguments(504, Outcome.SERVER_ERROR),
                arguments(529, Outcome.OVERLOADED),
                arguments(600, Outcome.ERROR),
                arguments(999, Outcome.ERROR));
    }

    @ParameterizedTest(name = "HTTP {0} is {1}")
    @MethodSource("statuses")
    void classifiesHttpStatus(int status, Outcome expected) {
        assertThat(OutcomeClassifier.ofStatus(status)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "HttpStatusException({0}) is {1}")
    @MethodSource("statuses")
    void classifiesHttpStatusExceptionByItsStatus(int status, Outcome expected) {
        assertThat(classifier.classify(new HttpStatusException(status))).isEqualTo(expected);
    }

    @Test
    void theCallersOwnJvmFailureIsNotTheCalleesFault() {
        assertThat(classifier.classify(new OutOfMemoryError("Java heap space"))).isEqualTo(Outcome.CLIENT_ERROR);
        assertThat(classifier.classify(new CompletionException(new StackOverflowError()))).isEqualTo(Outcome.CLIENT_ERROR);
        assertThat(classifier.classify(new AssertionError("a bug"))).as("other errors").isEqualTo(Outcome.ERROR);
    }

    @Test
    void classifies503WithOverloadedBodyAsOverloaded() {
        String anthropicBody = "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";

        assertThat(OutcomeClassifier.ofStatus(503, anthropicBody)).isEqualTo(Outcome.OVERLOADED);
        assertThat(OutcomeClassifier.ofStatus(503, "Service OVERLOADED, try later")).isEqualTo(Outcome.OVERLOADED);
        assertThat(classifier.classify(HttpStatusException.builder(503).body(anthropicBody).build()))
                .isEqualTo(Outcome.OVERLOADED);
    }

    @Test
    void classifies503WithOtherBodyAsServerError() {
        assertThat(OutcomeClassifier.ofStatus(503, "down for maintenance")).isEqualTo(Outcome.SERVER_ERROR);
        assertThat(OutcomeClassifier.ofStatus(503, null)).isEqualTo(Outcome.SERVER_ERROR);
    }

    static Stream<Arguments> exceptions() {
        return Stream.of(
                arguments(new CallTimeoutException(Duration.ofSeconds(30)), Outcome.TIMEOUT),
                arguments(new TimeoutException("future timed out"), Outcome.TIMEOUT),
                arguments(new SocketTimeoutException("Read timed out"), Outcome.TIMEOUT),
                arguments(new ConnectException("Connection refused"), Outcome.CONNECTION_ERROR),
                arguments(new UnknownHostException("mcp.internal"), Outcome.CONNECTION_ERROR),
                arguments(new SocketException("Connection reset"), Outcome.CONNECTION_ERROR),
                arguments(new HttpStatusException(502), Outcome.SERVER_ERROR),
                arguments(new IllegalStateException("bug in the tool"), Outcome.ERROR),
                arguments(new RuntimeException("anything else"), Outcome.ERROR));
    }

    @ParameterizedTest(name = "{0} is {1}")
    @MethodSource("exceptions")
    void classifiesException(Throwable error, Outcome expected) {
        assertThat(classifier.classify(error)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "CompletionException({0}) is {1}")
    @MethodSource("exceptions")
    void classifiesTheCauseOfACompletionException(Throwable error, Outcome expected) {
        assertThat(classifier.classify(new CompletionException(error))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "ExecutionException({0}) is {1}")
    @MethodSource("exceptions")
    void classifiesTheCauseOfAnExecutionException(Throwable error, Outcome expected) {
        assertThat(classifier.classify(new ExecutionException(error))).isEqualTo(expected);
    }

    @Test
    void unwrapsNestedFutureWrappers() {
        Throwable wrapped = new CompletionException(new ExecutionException(new ConnectException("Connection refused")));

        assertThat(classifier.classify(wrapped)).isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void classifiesTheIOExceptionInsideAnUncheckedIOException() {
        Throwable wrapped = new java.io.UncheckedIOException(new java.net.SocketTimeoutException("Read timed out"));

        assertThat(classifier.classify(wrapped)).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void wrapperWithoutCauseIsAnError() {
        assertThat(classifier.classify(new CompletionException("no cause", null))).isEqualTo(Outcome.ERROR);
    }

    @Test
    void userExceptionRuleComesBeforeBuiltInRules() {
        // Given a gateway that answers 404 when the MCP tool behind it has vanished
        OutcomeClassifier custom = OutcomeClassifier.builder()
                .exceptionRule(error -> error instanceof HttpStatusException http && http.status() == 404,
                        Outcome.SERVER_ERROR)
                .build();

        // Then that 404 counts against the tool, where the built-in rule would call it the caller's fault
        assertThat(custom.classify(new HttpStatusException(404))).isEqualTo(Outcome.SERVER_ERROR);
        assertThat(classifier.classify(new HttpStatusException(404))).isEqualTo(Outcome.CLIENT_ERROR);
    }

    @Test
    void unmatchedUserRulesFallThroughToBuiltInRules() {
        OutcomeClassifier custom = OutcomeClassifier.builder()
                .exceptionRule(IllegalArgumentException.class, Outcome.CLIENT_ERROR)
                .build();

        assertThat(custom.classify(new SocketTimeoutException())).isEqualTo(Outcome.TIMEOUT);
        assertThat(custom.classify(new HttpStatusException(429))).isEqualTo(Outcome.RATE_LIMITED);
    }

    @Test
    void userExceptionRulesSeeTheUnwrappedCause() {
        OutcomeClassifier custom = OutcomeClassifier.builder()
                .exceptionRule(IllegalArgumentException.class, Outcome.CLIENT_ERROR)
                .build();

        assertThat(custom.classify(new CompletionException(new IllegalArgumentException("bad tool arguments"))))
                .isEqualTo(Outcome.CLIENT_ERROR);
    }

    @Test
    void firstMatchingUserRuleWins() {
        OutcomeClassifier custom = OutcomeClassifier.builder()
                .exceptionRule(IllegalArgumentException.class, Outcome.CLIENT_ERROR)
                .exceptionRule(RuntimeException.class, Outcome.SERVER_ERROR)
                .build();

        assertThat(custom.classify(new IllegalArgumentException())).isEqualTo(Outcome.CLIENT_ERROR);
        assertThat(custom.classify(new IllegalStateException())).isEqualTo(Outcome.SERVER_ERROR);
    }

    @Test
    void resultRuleTurnsAnMcpErrorResultIntoAServerError() {
        OutcomeClassifier custom = OutcomeClassifier.builder()
                .resultRule(result -> result instanceof Map<?, ?> map && Boolean.TRUE.equals(map.get("isError")),
                        Outcome.SERVER_ERROR)
                .build();

        assertThat(custom.classifyResult(Map.of("isError", true, "content", "database unavailable")))
                .isEqualTo(Outcome.SERVER_ERROR);
        assertThat(custom.classifyResult(Map.of("isError", false, "content", "3 rows")))
                .isEqualTo(Outcome.SUCCESS);
        assertThat(custom.hasResultRules()).isTrue();
    }

    @Test
    void withoutResultRulesEveryResultIsASuccess() {
        assertThat(classifier.classifyResult(Map.of("isError", true))).isEqualTo(Outcome.SUCCESS);
        assertThat(classifier.classifyResult(null)).isEqualTo(Outcome.SUCCESS);
        assertThat(classifier.hasResultRules()).isFalse();
    }
}
