package io.agentfuse.core.scenario;

import io.agentfuse.core.event.HedgeListener;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A hedge listener that notes each event as a short line: {@code started a>b}, {@code won a>b}, {@code refused a BUDGET}. */
final class HedgeEvents implements HedgeListener {

    private final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void onHedgeStarted(String primary, String hedge) {
        events.add("started " + primary + ">" + hedge);
    }

    @Override
    public void onHedgeWon(String primary, String hedge) {
        events.add("won " + primary + ">" + hedge);
    }

    @Override
    public void onHedgeRefused(String primary, Refusal reason) {
        events.add("refused " + primary + " " + reason);
    }

    List<String> events() {
        return List.copyOf(events);
    }
}
