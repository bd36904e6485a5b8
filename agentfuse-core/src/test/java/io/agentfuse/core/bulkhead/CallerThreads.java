package io.agentfuse.core.bulkhead;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Threads that stand for callers of a bulkhead at the same time. After each test it ends them and
 * checks that none is left running, so that a caller stuck in a wait fails the test instead of outliving it.
 */
final class CallerThreads implements AfterEachCallback {

    private final ExecutorService threads = Executors.newCachedThreadPool();

    <T> Future<T> submit(Callable<T> caller) {
        return threads.submit(caller);
    }

    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
}
