package io.agentfuse.gateway.reload;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ServerConfig;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code server:} keys a running gateway reads only at start: where it listens, how many
 * event loops serve, and the edge limits — every key of the section but the admin token, which is
 * read per request, and {@code drainDelay} and {@code shutdownGrace}, read when a stop comes. Everything outside {@code server:} (models, breakers, retries, context, MCP
 * servers) applies to the next request after a reload. The keys are the components of
 * {@link ServerConfig} and its {@link ServerConfig.Limits} and {@link ServerConfig.Shutdown} (written flat under {@code server:}),
 * so a new limit is covered without a change here.
 */
final class StartOnlyKeys {

    private static final Set<String> READ_LATER = Set.of("adminToken", "drainDelay", "shutdownGrace");
    private static final Set<Class<?>> FLAT = Set.of(ServerConfig.Limits.class, ServerConfig.Shutdown.class);

    private StartOnlyKeys() {
    }

    /**
     * The start-only keys whose values differ between {@code before} and {@code after}: those of
     * {@code server:}, and {@code observability.otlp.endpoint} (the traces' exporter is made at start).
     */
    static List<String> changed(AgentfuseConfig before, AgentfuseConfig after) {
        List<String> changed = changed(before.server(), after.server());
        if (!before.observability().equals(after.observability())) {
            changed.add("observability.otlp.endpoint");
        }
        return changed;
    }

    /** The start-only keys whose values differ between {@code before} and {@code after}, as {@code server.<key>}. */
    static List<String> changed(ServerConfig before, ServerConfig after) {
        List<String> changed = new ArrayList<>();
        collect(changed, ServerConfig.class, before, after);
        return changed;
    }

    private static void collect(List<String> changed, Class<?> type, Object before, Object after) {
        for (RecordComponent component : type.getRecordComponents()) {
            String key = component.getName();
            Object was = value(component, before);
            Object is = value(component, after);
            if (FLAT.contains(component.getType())) {
                collect(changed, component.getType(), was, is);
            } else if (!READ_LATER.contains(key) && !Objects.equals(was, is)) {
                changed.add("server." + key);
            }
        }
    }

    private static Object value(RecordComponent component, Object record) {
        try {
            return component.getAccessor().invoke(record);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read server." + component.getName(), e);
        }
    }
}
