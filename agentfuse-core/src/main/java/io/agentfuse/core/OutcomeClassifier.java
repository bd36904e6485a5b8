package io.agentfuse.core;

import io.agentfuse.core.timeout.CallTimeoutException;

import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The one place that decides which {@link Outcome} a call ended with.
 *
 * <p>Built-in rules, applied after any user rules:
 * <ul>
 *   <li>HTTP status: 2xx → SUCCESS; 408 → TIMEOUT; 429 → RATE_LIMITED; 529 → OVERLOADED;
 *       503 whose body mentions "overload" → OVERLOADED; other 5xx → SERVER_ERROR;
 *       other 4xx → CLIENT_ERROR; anything else (a redirect the client did not follow, a
 *       status no HTTP version defines) → ERROR: no answer of the call was had, and the callee,
 *       not the caller, is the likelier cause (a moved endpoint).</li>
 *   <li>Exceptions (unwrapping {@link CompletionException}, {@link ExecutionException} and
 *       {@link UncheckedIOException}):
 *       {@link HttpStatusException} → by status; {@link CallTimeoutException},
 *       {@link TimeoutException} and socket timeouts → TIMEOUT; refused, reset, unresolved or
 *       closed connections → CONNECTION_ERROR; a {@link VirtualMachineError} (out of memory, a
 *       stack overflow) → CLIENT_ERROR, the caller's own failure: not held against the callee, not
 *       retried, not fallen back from (a retry or a fallback would need the memory that ran out;
 *       resilience4j and Failsafe let an {@code Error} through untouched the same way); anything
 *       else → ERROR.</li>
 *   <li>Results: SUCCESS, unless a user result rule says otherwise (for example an MCP result
 *       with {@code isError: true} → SERVER_ERROR).</li>
 * </ul>
 *
 * <p>Immutable and thread-safe; share one instance.
 *
 * <pre>{@code
 * OutcomeClassifier classifier = OutcomeClassifier.builder()
 *     .resultRule(r -> r instanceof ToolResult t && t.isError(), Outcome.SERVER_ERROR)
 *     .build();
 * }</pre>
 */
public final class OutcomeClassifier {

    private static final OutcomeClassifier DEFAULT = new OutcomeClassifier(List.of(), List.of());

    private final List<Function<Throwable, Outcome>> exceptionRules;
    private final List<Function<Object, Outcome>> resultRules;

    private OutcomeClassifier(List<Function<Throwable, Outcome>> exceptionRules,
                              List<Function<Object, Outcome>> resultRules) {
        this.exceptionRules = List.copyOf(exceptionRules);
        this.resultRules = List.copyOf(resultRules);
    }

    /** The built-in rules only. */
    public static OutcomeClassifier defaults() {
        return DEFAULT;
    }

    /** A builder for a classifier with rules of your own ahead of the built-in ones. */
    public static Builder builder() {
        return new Builder();
    }

    /** The outcome of an HTTP answer with {@code status} and (possibly null) {@code body}. */
    public static Outcome ofStatus(int status, String body) {
        if (status >= 200 && status < 300) {
            return Outcome.SUCCESS;
        }
        if (status < 400 || status > 599) {
            return Outcome.ERROR;
        }
        if (status == 408) {
            return Outcome.TIMEOUT;
        }
        if (status == 429) {
            return Outcome.RATE_LIMITED;
        }
        if (status == 529 || (status == 503 && mentionsOverload(body))) {
            return Outcome.OVERLOADED;
        }
        return status >= 500 ? Outcome.SERVER_ERROR : Outcome.CLIENT_ERROR;
    }

    /** The outcome of an HTTP answer with {@code status}. */
    public static Outcome ofStatus(int status) {
        return ofStatus(status, null);
    }

    /** The outcome of a call that threw {@code error}. */
    public Outcome classify(Throwable error) {
        Throwable cause = unwrap(error);
        for (Function<Throwable, Outcome> rule : exceptionRules) {
            Outcome outcome = rule.apply(cause);
            if (outcome != null) {
                return outcome;
            }
        }
        return builtIn(cause);
    }

    /** The outcome of a call that returned {@code result} normally. */
    public Outcome classifyResult(Object result) {
        if (resultRules.isEmpty()) {
            return Outcome.SUCCESS;
        }
        for (Function<Object, Outcome> rule : resultRules) {
            Outcome outcome = rule.apply(result);
            if (outcome != null) {
                return outcome;
            }
        }
        return Outcome.SUCCESS;
    }

    /** Whether any result rule is configured (if not, every normal return is a success). */
    public boolean hasResultRules() {
        return !resultRules.isEmpty();
    }

    /**
     * Strips what futures wrap a failure in ({@link CompletionException}, {@link ExecutionException})
     * and nothing else: the failure as the callee raised it, which is what a guard's caller gets,
     * from {@code execute} and {@code executeAsync} alike.
     */
    public static Throwable unwrapFuture(Throwable error) {
        Throwable current = error;
        while ((current instanceof CompletionException || current instanceof ExecutionException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /**
     * Strips the wrappers around the real cause, for classifying it: those of futures, and the
     * {@link UncheckedIOException} that a {@code Supplier} must wrap an {@code IOException} in.
     * The one place that unwraps; a breaker's test for another breaker's rejection uses it too.
     */
    public static Throwable unwrap(Throwable error) {
        Throwable current = error;
        while ((current instanceof CompletionException || current instanceof ExecutionException
                || current instanceof UncheckedIOException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    private static Outcome builtIn(Throwable error) {
        if (error instanceof HttpStatusException http) {
            return ofStatus(http.status(), http.body().orElse(null));
        }
        if (error instanceof CallTimeoutException || error instanceof TimeoutException
                || error instanceof InterruptedIOException) {
            // SocketTimeoutException and java.net.http.HttpTimeoutException are InterruptedIOExceptions.
            return Outcome.TIMEOUT;
        }
        if (error instanceof ConnectException || error instanceof NoRouteToHostException
                || error instanceof UnknownHostException || error instanceof SocketException
                || error instanceof ClosedChannelException) {
            return Outcome.CONNECTION_ERROR;
        }
        if (error instanceof VirtualMachineError) {
            return Outcome.CLIENT_ERROR; // the calling JVM's own failure: the callee is not to blame, nor to be called again
        }
        return Outcome.ERROR;
    }

    private static boolean mentionsOverload(String body) {
        return body != null && body.toLowerCase(Locale.ROOT).contains("overload");
    }

    /** Collects user rules; the first rule that answers wins, then the built-in rules apply. */
    public static final class Builder {
        private final List<Function<Throwable, Outcome>> exceptionRules = new ArrayList<>();
        private final List<Function<Object, Outcome>> resultRules = new ArrayList<>();

        private Builder() {
        }

        /** Exceptions of {@code type} end as {@code outcome}. */
        public Builder exceptionRule(Class<? extends Throwable> type, Outcome outcome) {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(outcome, "outcome");
            exceptionRules.add(error -> type.isInstance(error) ? outcome : null);
            return this;
        }

        /** Exceptions matching {@code predicate} end as {@code outcome}. */
        public Builder exceptionRule(Predicate<? super Throwable> predicate, Outcome outcome) {
            Objects.requireNonNull(predicate, "predicate");
            Objects.requireNonNull(outcome, "outcome");
            exceptionRules.add(error -> predicate.test(error) ? outcome : null);
            return this;
        }

        /** Results matching {@code predicate} end as {@code outcome} (e.g. an MCP {@code isError}). */
        public Builder resultRule(Predicate<Object> predicate, Outcome outcome) {
            Objects.requireNonNull(predicate, "predicate");
            Objects.requireNonNull(outcome, "outcome");
            resultRules.add(result -> predicate.test(result) ? outcome : null);
            return this;
        }

        /** The immutable classifier. */
        public OutcomeClassifier build() {
            return new OutcomeClassifier(exceptionRules, resultRules);
        }
    }
}
