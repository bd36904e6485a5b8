package io.agentfuse.gateway.reload;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigError;
import io.agentfuse.config.ConfigException;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads the gateway's configuration file again and puts it in force (docs/design.md §7), when asked
 * ({@code POST /admin/reload}, SIGHUP) or when the file changes (polled every
 * {@link ConfigFile#pollInterval()}).
 *
 * <p>What a reload guarantees:
 * <ul>
 *   <li>All or nothing: a file with any error (each named with its key and line) changes nothing;
 *       the configuration in force stays, and the failure is logged and, for a request, answered.</li>
 *   <li>Breakers whose settings did not change keep their state (an open breaker stays open); see
 *       {@link AgentfuseRuntime#reload}. Requests already running finish under the old configuration.</li>
 *   <li>The {@code server:} keys read only at start are reported as needing a restart, not applied
 *       ({@link Reloaded#restartRequired()}); {@code state.store} cannot change at all, nor can the admin
 *       token be removed ({@link ReloadChanges}); clients and budgets a reload removes are logged at WARN.</li>
 *   <li>Reloads are put in force one at a time, in the order they started. Reading and checking the
 *       file hold no lock, so a slow reload (a hung disk, a hostile file, though the loader refuses
 *       those fast) never holds up a later one: the later one is decided on its own, and the earlier
 *       one, when it ends, changes nothing and fails with {@link ReloadSupersededException}
 *       (counted neither way).</li>
 *   <li>A file whose content is unchanged (touched, or saved as it was) is not reloaded by the
 *       watcher; the watcher reads a changed file only once it has held still for one poll interval
 *       (a file written in place is not read half-written), and an empty file is refused.</li>
 *   <li>A reload is counted ({@code agentfuse_config_reloads_total}) and its new models' series
 *       declared before its configuration is in force, so no reader sees the new configuration
 *       beside metrics that do not show it yet.</li>
 * </ul>
 * File work runs on a worker thread, never on an event loop. Thread-safe.
 */
public final class ConfigReloader {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigReloader.class);

    private final Vertx vertx;
    private final AgentfuseRuntime runtime;
    private final ConfigFile file;
    private final GatewayMetrics metrics;
    private final AtomicBoolean polling = new AtomicBoolean();
    /** Numbers the reloads in the order they start. */
    private final AtomicLong started = new AtomicLong();
    private long timer = -1;
    // Guarded by this: what the file was when last read, and the latest reload decided.
    private FileStamp seen;
    private FileStamp pending;
    private String loadedText;
    private long decided;

    /**
     * A reloader for {@code runtime}, whose configuration was read from {@code file}; {@code null}
     * for a configuration that came from elsewhere (then every reload fails, saying so). Each
     * reload is counted in {@code metrics}.
     */
    public ConfigReloader(Vertx vertx, AgentfuseRuntime runtime, GatewayMetrics metrics, ConfigFile file) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.file = file;
        if (file != null) {
            this.seen = FileStamp.of(file).orElse(null);
            this.loadedText = read().orElse(null);
        }
    }

    /** Whether there is a file to reload from. */
    public boolean available() {
        return file != null;
    }

    /**
     * Reads the file and puts it in force; {@code trigger} says why, for the log and the answer.
     * Fails with {@link ConfigException} (the configuration in force stays) or, without a file,
     * {@link IllegalStateException}.
     */
    public Future<Reloaded> reload(String trigger) {
        if (file == null) {
            return Future.failedFuture(new IllegalStateException(
                    "the gateway was started without a configuration file, so there is nothing to reload"));
        }
        long number = started.incrementAndGet();
        return vertx.executeBlocking(() -> reloadNow(trigger, number), false)
                .onSuccess(reloaded -> LOG.info(reloaded.summary()))
                .onFailure(failure -> {
                    if (failure instanceof ReloadSupersededException) {
                        LOG.info("configuration reload ({}) superseded by a later one; it changed nothing", trigger);
                    } else if (failure instanceof ConfigException invalid) {
                        LOG.warn("configuration not reloaded ({}); the one in force stays: {}", trigger, invalid.getMessage());
                    } else {
                        LOG.error("configuration not reloaded ({}); the one in force stays", trigger, failure);
                    }
                });
    }

    /** Starts checking the file for changes, if it has a poll interval. */
    public void watch() {
        if (file == null || file.pollInterval().isZero()) {
            return;
        }
        timer = vertx.setPeriodic(file.pollInterval().toMillis(), id -> pollOnce());
    }

    /** Stops checking the file. */
    public void close() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }

    private void pollOnce() {
        if (!polling.compareAndSet(false, true)) {
            return; // the previous check is still running
        }
        vertx.executeBlocking(this::changedSinceLoaded, false)
                .compose(changed -> changed ? reload("file changed").<Void>mapEmpty() : Future.<Void>succeededFuture())
                .onComplete(ignored -> polling.set(false));
    }

    /**
     * Whether the file's content differs from what was last put in force (or last failed to load),
     * and has held still since the previous look: a file being written in place is not read until
     * its writer is done, so that a truncated file that happens to parse is never put in force.
     */
    private boolean changedSinceLoaded() {
        FileStamp now = FileStamp.of(file).orElse(null);
        synchronized (this) {
            if (now == null || now.equals(seen)) {
                pending = null;
                return false; // missing for a moment (an editor replacing it), or untouched
            }
            if (!now.equals(pending)) {
                pending = now;
                return false; // changed since the last look: wait one interval for it to hold still
            }
            pending = null;
            seen = now;
        }
        String text = read().orElse(null); // no lock while reading: a slow read holds up no reload
        synchronized (this) {
            return text != null && !text.equals(loadedText);
        }
    }

    /**
     * Reload number {@code number}: reads and checks the file without a lock, then decides under
     * it, in start order ({@link #decide}). The reload is counted, and the new models' series
     * declared, before the new configuration can be seen: whoever finds a new model served, or a
     * new breaker listed, and then reads {@code /metrics} finds this reload counted.
     */
    private Reloaded reloadNow(String trigger, long number) {
        String text = null;
        AgentfuseConfig next;
        try {
            text = ConfigLoader.read(file.path());
            next = parsed(text);
        } catch (RuntimeException refused) {
            synchronized (this) {
                decide(number, text); // a broken file is not retried until it changes again
                metrics.configReload(false);
            }
            throw refused;
        }
        synchronized (this) {
            decide(number, text);
            AgentfuseConfig before = runtime.config();
            List<ConfigError> refusals = ReloadChanges.refusals(before, next);
            if (!refusals.isEmpty()) {
                metrics.configReload(false);
                throw new ConfigException(file.path().toString(), refusals);
            }
            List<String> removed = ReloadChanges.removed(before, next);
            metrics.declareModels(next.models().values());
            metrics.configReload(true);
            Reloaded reloaded = new Reloaded(file.path().toString(), trigger, runtime.reload(next),
                    StartOnlyKeys.changed(before, next), removed);
            if (!removed.isEmpty()) {
                LOG.warn("{} ({}): {}", reloaded.source(), trigger, ReloadChanges.warning(before, next, removed));
            }
            return reloaded;
        }
    }

    /** The configuration {@code text} holds; fails with what is wrong with it. */
    private AgentfuseConfig parsed(String text) {
        if (text.isBlank()) {
            // Almost always a file caught while being rewritten; "no models at all" is never meant this way.
            throw new ConfigException(file.path().toString(), List.of(new ConfigError("", 1, 1,
                    "the file is empty; the configuration in force stays")));
        }
        return ConfigLoader.parse(text, file.path().toString(), file.environment());
    }

    /**
     * Records that reload {@code number} is being decided on {@code text} (null: unreadable), unless
     * a reload that started later was decided first: then this one is superseded and changes nothing.
     */
    private synchronized void decide(long number, String text) {
        if (number < decided) {
            throw new ReloadSupersededException();
        }
        decided = number;
        seen = FileStamp.of(file).orElse(seen);
        if (text != null) {
            loadedText = text;
        }
    }

    /** The file's text, or empty while it cannot be read (an editor replacing it): the watcher looks again later. */
    private Optional<String> read() {
        try {
            return Optional.of(ConfigLoader.read(file.path()));
        } catch (ConfigException unreadable) {
            return Optional.empty();
        }
    }

    /** When the file was last modified and how long it is: a cheap test for "maybe changed". */
    private record FileStamp(FileTime modified, long size) {

        static Optional<FileStamp> of(ConfigFile file) {
            try {
                return Optional.of(new FileStamp(Files.getLastModifiedTime(file.path()), Files.size(file.path())));
            } catch (IOException e) {
                return Optional.empty();
            }
        }
    }
}
