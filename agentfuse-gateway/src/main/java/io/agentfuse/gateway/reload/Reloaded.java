package io.agentfuse.gateway.reload;

import io.agentfuse.config.ReloadReport;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * A configuration put in force by a reload.
 *
 * @param source          the file it was read from
 * @param trigger         what asked for it: {@code admin API}, {@code SIGHUP}, {@code file changed}
 * @param breakers        what happened to each breaker (kept state, started afresh, added, removed)
 * @param restartRequired the {@code server:} keys whose new values apply only after a restart
 *                        (the listener and its limits are set up once, at start)
 * @param removed         the clients and budgets no longer configured, as {@code clients.<name>} and
 *                        {@code budgets.<name>}
 */
public record Reloaded(String source, String trigger, ReloadReport breakers, List<String> restartRequired,
                       List<String> removed) {

    public Reloaded {
        restartRequired = List.copyOf(restartRequired);
        removed = List.copyOf(removed);
    }

    /** The answer of {@code POST /admin/reload}. */
    public JsonObject toJson() {
        return new JsonObject()
                .put("reloaded", true)
                .put("source", source)
                .put("trigger", trigger)
                .put("breakers", new JsonObject()
                        .put("added", new JsonArray(breakers.added()))
                        .put("kept", new JsonArray(breakers.kept()))
                        .put("replaced", new JsonArray(breakers.replaced()))
                        .put("removed", new JsonArray(breakers.removed())))
                .put("restartRequired", new JsonArray(restartRequired))
                .put("removed", new JsonArray(removed));
    }

    /** One line for the log. */
    public String summary() {
        return "configuration reloaded from " + source + " (" + trigger + "): " + breakers.kept().size() + " breakers kept, "
                + breakers.replaced().size() + " replaced, " + breakers.added().size() + " added, "
                + breakers.removed().size() + " removed"
                + (restartRequired.isEmpty() ? "" : "; a restart is needed for " + String.join(", ", restartRequired));
    }
}
