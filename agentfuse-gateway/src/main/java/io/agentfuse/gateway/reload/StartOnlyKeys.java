package io.agentfuse.gateway.reload;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ServerConfig;
import io.agentfuse.config.StateConfig;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The keys a running gateway reads only at start. Under {@code server:}: where it listens, how many
 * event loops serve, and the edge limits — every key of the section but the admin token, which is
 * read per request, and {@code drainDelay} and {@code shutdownGrace}, read when a stop comes. Under
 * {@code state.redis:} (with {@code store: redis}): every key, since the shared store and the budget
 * ledger are made at start. Everything else (models, breakers, retries, context, MCP servers,
 * budgets, clients) applies to the next request after a reload. The keys are the components of
 * {@link ServerConfig} and its {@link ServerConfig.Limits} and {@link ServerConfig.Shutdown} (written flat under {@code server:}),
 * and of {@link StateConfig.Redis}, so a new key is covered without a change here.
 */
final class StartOnlyKeys {

    private static final Set<String> READ_LATER = Set.of("adminToken", "drainDelay", "shutdownGrace");
    private static final Set<Class<?>> FLAT = Set.of(ServerConfig.Limits.class, ServerConfig.Shutdown.class);

    private StartOnlyKeys() {
    }

    /**
     * The start-only keys whose values differ between {@code before} and {@code after}: those of
     * {@code server:}, those of {@code state.redis:} on a gateway whose state is on Redis, and
     * {@code observability.otlp.endpoint} (the traces' exporter is made at start). Names, never values
     * (a Redis URI may hold a password).
     */
    static List<String> changed(AgentfuseConfig before, AgentfuseConfig after) {
        List<String> changed = changed(before.server(), after.server());
        if (after.state().store() == StateConfig.Store.REDIS) {
            collect(changed, "state.redis.", StateConfig.Redis.class, before.state().redis(), after.state().redis());
        }
        if (!before.observability().equals(after.observability())) {
            changed.add("observability.otlp.endpoint");
        }
        return changed;
    }

    /** The start-only keys whose values differ between {@code before} and {@code after}, as {@code server.<key>}. */
    static List<String> changed(ServerConfig before, ServerConfig after) {
        List<String> changed = new ArrayList<>();
        collect(changed, "server.", ServerConfig.class, before, after);
        return changed;
    }

    private static void collect(List<String> changed, String prefix, Class<?> type, Object before, Object after) {
        for (RecordComponent component : type.getRecordComponents()) {
            String key = component.getName();
            Object was = value(component, before);
            Object is = value(component, after);
            if (FLAT.contains(component.getType())) {
                collect(changed, prefix, component.getType(), was, is);
            } else if (!READ_LATER.contains(key) && !Objects.equals(was, is)) {
                changed.add(prefix + key);
            }
        }
    }

    private static Object value(RecordComponent component, Object record) {
        try {
            return component.getAccessor().invoke(record);
        } catch (IllegalAccessException | InvocationTargetException e) {
            // The record's name, never the record: its text would show the values (a Redis URI's password).
            throw new IllegalStateException("cannot read " + component.getName() + " of "
                    + component.getDeclaringRecord().getSimpleName(), e);
        }
    }
}
