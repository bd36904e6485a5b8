package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.Clock;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.DialectTranslator;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.upstream.UpstreamResponse;
import io.vertx.core.buffer.Buffer;

/**
 * How an answer reaches its caller: complete, or streamed — with the provider's events passed on as
 * they are to a caller of {@code shownAsIs} (its own dialect, the relay not re-encoding:
 * {@link io.agentfuse.gateway.dialect.StreamTranslator}), or re-encoded ({@code shownAsIs} null),
 * which shows the caller no reasoning ({@link AnswerOpening}).
 *
 * <p>A complete answer is put in its caller's words — or, for the gateway's own {@link ModelClient},
 * read into its neutral form — within the attempt that got it ({@link #answer}), so that one which
 * cannot be is a failed attempt of its step, counted by its breaker and fallen back from, rather
 * than the end of the chain.
 *
 * @param caller a complete answer's caller, whose dialect its body is given in; {@code null} for a
 *               stream, and for a complete answer read into its neutral form ({@link #read(Clock)})
 * @param clock  stamps a translated or read complete answer; {@code null} for a stream
 * @param read   whether a complete answer is read into a {@link ChatResponse} ({@link StepAnswer#read})
 */
record Delivery(boolean stream, Dialect shownAsIs, ChatRequest caller, Clock clock, boolean read) {

    /** A complete answer for the caller who sent {@code caller}, translated when its provider speaks another dialect. */
    static Delivery complete(ChatRequest caller, Clock clock) {
        return new Delivery(false, null, caller, clock, false);
    }

    /** A complete answer read into its neutral form, stamped by {@code clock}, for {@link GuardedModelClient}. */
    static Delivery read(Clock clock) {
        return new Delivery(false, null, null, clock, true);
    }

    /** A stream to a caller of {@code caller}, its events re-encoded when {@code reencoded}. */
    static Delivery stream(Dialect caller, boolean reencoded) {
        return new Delivery(true, reencoded ? null : caller, null, null, false);
    }

    /**
     * What {@code step}'s complete {@code answer}, from an attempt started at {@code startedNanos},
     * gives the chain, on the attempt's event loop: the body the caller reads — as it came from a
     * provider of the caller's dialect (no work at all), else read and translated — and, when this
     * delivery {@code read}s, its neutral form.
     *
     * @throws MalformedAnswerException when the answer cannot be read (its shape was checked on
     *                                  arrival, but a dialect's reading asks more: a field's type, a
     *                                  part it knows) or said in the caller's dialect (a tool call
     *                                  whose arguments are not a JSON object, for an Anthropic or
     *                                  Gemini caller): counted, retried and fallen back from as an
     *                                  answer that is not well-formed is (docs/design.md §7), as a
     *                                  stream that cannot be translated counts too ({@link StreamRelay});
     *                                  the answer is charged to {@code budget} as its provider billed it
     */
    StepAnswer answer(PlannedStep step, UpstreamResponse answer, BudgetTicket budget, long startedNanos) {
        boolean translated = caller != null && step.provider().dialect() != caller.dialect();
        ChatResponse neutral = read || translated ? read(step, answer, budget) : null;
        Buffer body = translated ? said(step, answer, neutral, budget) : answer.body();
        return new StepAnswer(step, answer, body, read ? neutral : null, startedNanos);
    }

    /** {@code answer} in its neutral form. */
    private ChatResponse read(PlannedStep step, UpstreamResponse answer, BudgetTicket budget) {
        try {
            return step.provider().dialect().parseResponse(answer.json(), clock);
        } catch (RuntimeException unreadable) { // the provider's fault, as an answer that is not well-formed is
            budget.chargeFailedAnswer(step.model(), answer.usage()); // the provider billed it all the same
            throw new MalformedAnswerException("the answer of model " + step.name() + " could not be read"
                    + (unreadable instanceof MalformedAnswerException || unreadable instanceof UntranslatableException
                    ? ": " + unreadable.getMessage() : ""));
        }
    }

    /** The neutral {@code read} of {@code answer} in the caller's words. */
    private Buffer said(PlannedStep step, UpstreamResponse answer, ChatResponse read, BudgetTicket budget) {
        try {
            return DialectTranslator.clientResponse(read, caller).toBuffer();
        } catch (UntranslatableException untranslatable) {
            budget.chargeFailedAnswer(step.model(), answer.usage());
            throw new MalformedAnswerException(untranslated(step, untranslatable));
        }
    }

    /** What a caller reads of an answer of {@code step}'s that cannot be said in its dialect, complete or streamed. */
    static String untranslated(PlannedStep step, UntranslatableException untranslatable) {
        return "the answer of model " + step.name() + " could not be translated: " + untranslatable.getMessage();
    }
}
