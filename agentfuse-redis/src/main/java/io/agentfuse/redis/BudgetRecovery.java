package io.agentfuse.redis;

import io.agentfuse.core.budget.WindowTally;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How a budget ledger keeps in touch with Redis: a heartbeat (the instance counts in the others'
 * share; every fifth beat also reads the fleet's windows, so that an instance knows what is left of
 * a window it has not reserved in), and once Redis stopped answering, a probe until it answers
 * again, then the settlements owed to it, in order, before Redis decides again. Everything runs on
 * the ledger's thread or the connection's; the state is {@link BudgetLoss}'s.
 */
final class BudgetRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(BudgetRecovery.class);
    /** Every how many heartbeats the fleet's windows are read (the instances are counted on each). */
    private static final int WINDOW_READS_EVERY = 5;

    private final BudgetRedis redis;
    private final BudgetCalls calls;
    private final BudgetLoss loss;
    private final BudgetRefusals refusals;
    private final Duration heartbeat;
    private final Duration probeInterval;
    private final AtomicLong beats = new AtomicLong();

    BudgetRecovery(BudgetRedis redis, BudgetCalls calls, BudgetLoss loss, BudgetRefusals refusals, Duration heartbeat,
                   Duration probeInterval) {
        this.redis = redis;
        this.calls = calls;
        this.loss = loss;
        this.refusals = refusals;
        this.heartbeat = heartbeat;
        this.probeInterval = probeInterval;
    }

    /** Connects in the background (Redis decides once it answers) and starts the heartbeat. */
    void start() {
        redis.open(this::probe);
        redis.schedule(this::beat, heartbeat.toMillis());
    }

    /** Redis did not answer: from now on, the loss rule, and a probe until it answers again. */
    void lost(Throwable failure) {
        if (loss.lost()) {
            LOG.warn("Redis did not answer a budget call within {} ms ({}); budgets follow state.redis.budgetOnLoss until it does",
                    calls.waitLimit().toMillis(), failure.toString());
            redis.schedule(this::probe, probeInterval.toMillis());
        }
    }

    /** Asks Redis whether it is back; if so, settles what it is owed and lets it decide again. */
    private void probe() {
        if (!loss.away()) {
            return;
        }
        calls.presence().whenComplete((instances, failure) -> {
            if (failure != null) {
                redis.schedule(this::probe, probeInterval.toMillis());
            } else {
                loss.heard(instances.intValue());
                replay();
            }
        });
    }

    /** Settles what Redis is owed, one after another, until nothing is; then Redis decides again. */
    private void replay() {
        List<BudgetLoss.Owed> due = loss.takeOwedOrReturn();
        if (due.isEmpty()) {
            LOG.info("Redis answers budget calls again; it decides them from now on");
            return;
        }
        replay(due, 0);
    }

    /**
     * Sends {@code due[from..]} in order; on a failure puts back what was not answered (the one that
     * failed included: counting a spend twice errs on the side of the budget, forgetting it would not).
     * A settlement Redis refused ({@link RedisRefusal}) is not put back: it would be refused on every
     * probe, and Redis would never decide again.
     */
    private void replay(List<BudgetLoss.Owed> due, int from) {
        if (from == due.size()) {
            redis.schedule(this::replay, 0);
            return;
        }
        BudgetLoss.Owed owed = due.get(from);
        calls.settle(owed).whenComplete((notWindows, failure) -> {
            String refusal = failure == null ? null : RedisRefusal.ofOneCall(failure);
            if (failure == null) {
                refusals.notWindows(notWindows);
                replay(due, from + 1);
            } else if (refusal != null) {
                refusals.refused("settlement", owed.claims(), refusal, "its spend, owed since Redis was away, is not counted");
                replay(due, from + 1);
            } else {
                loss.putBack(due.subList(from, due.size()));
                redis.schedule(this::probe, probeInterval.toMillis());
            }
        });
    }

    private void beat() {
        if (!loss.away()) {
            boolean readWindows = beats.incrementAndGet() % WINDOW_READS_EVERY == 0;
            calls.presence().thenCompose(instances -> {
                loss.heard(instances.intValue());
                return readWindows ? calls.windows(loss.clockMillis()) : CompletableFuture.completedFuture(List.<WindowTally>of());
            }).whenComplete((windows, failure) -> {
                String refusal = failure == null ? null : RedisRefusal.ofOneCall(failure);
                if (failure == null) {
                    loss.heard(windows, loss.instances());
                } else if (refusal != null) {
                    refusals.refused("heartbeat", List.of(), refusal, "what this instance knows of the fleet is not renewed");
                } else {
                    lost(failure);
                }
            });
        }
        redis.schedule(this::beat, heartbeat.toMillis());
    }
}
