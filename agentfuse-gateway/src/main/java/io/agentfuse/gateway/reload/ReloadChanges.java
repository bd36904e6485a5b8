package io.agentfuse.gateway.reload;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigError;

import java.util.ArrayList;
import java.util.List;

/**
 * What a reload may not change while the gateway runs, and what it takes away that the operator must
 * be told of. Refused, the configuration in force staying:
 * <ul>
 *   <li>{@code state.store}: the shared store and the budget ledger are made at start;</li>
 *   <li>removing {@code server.adminToken}: the admin API would turn read-only, and the reload
 *       that a truncated or mistaken file made could not be undone through it. A new token is fine
 *       (rotation); running without one takes a restart.</li>
 * </ul>
 * Allowed but warned of: clients and budgets that are no longer configured (a file cut short drops
 * them as surely as an edit does), and most of all the last client, after which model and MCP
 * requests need no key. Pure functions.
 */
final class ReloadChanges {

    private ReloadChanges() {
    }

    /** Why {@code next} may not replace {@code before} on a running gateway; empty when it may. */
    static List<ConfigError> refusals(AgentfuseConfig before, AgentfuseConfig next) {
        List<ConfigError> refusals = new ArrayList<>();
        if (next.state().store() != before.state().store()) {
            refusals.add(new ConfigError("state.store", 0, 0, "state.store cannot change while the gateway runs (it is "
                    + before.state().store().name().toLowerCase() + "); restart the gateway to change it"));
        }
        if (!before.server().adminToken().isEmpty() && next.server().adminToken().isEmpty()) {
            refusals.add(new ConfigError("server.adminToken", 0, 0, "the file sets no server.adminToken, and without one the"
                    + " admin API turns read-only: no later reload could be asked for through it. The token in force stays;"
                    + " set one (a new one is fine), or restart the gateway to run without one"));
        }
        return refusals;
    }

    /** The clients and budgets of {@code before} that {@code next} no longer has, as {@code clients.<name>} and {@code budgets.<name>}. */
    static List<String> removed(AgentfuseConfig before, AgentfuseConfig next) {
        List<String> removed = new ArrayList<>();
        before.clients().keySet().stream().filter(name -> !next.clients().containsKey(name))
                .forEach(name -> removed.add("clients." + name));
        before.budgets().keySet().stream().filter(name -> !next.budgets().containsKey(name))
                .forEach(name -> removed.add("budgets." + name));
        return removed;
    }

    /** One line for the log on what {@link #removed} found; empty when nothing was removed. */
    static String warning(AgentfuseConfig before, AgentfuseConfig next, List<String> removed) {
        if (removed.isEmpty()) {
            return "";
        }
        StringBuilder warning = new StringBuilder("the reload removed ").append(String.join(", ", removed));
        if (!before.clients().isEmpty() && next.clients().isEmpty()) {
            warning.append("; no client is left, so model and MCP requests need no key any more");
        }
        if (removed.stream().anyMatch(name -> name.startsWith("budgets."))) {
            warning.append("; what a removed budget counted limits no one any more");
        }
        return warning.toString();
    }
}
