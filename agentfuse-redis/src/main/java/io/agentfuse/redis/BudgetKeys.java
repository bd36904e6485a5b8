package io.agentfuse.redis;

import io.agentfuse.core.budget.WindowKey;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Where the budgets live in Redis ({@link BudgetScripts} read and write them): a window is the hash
 * {@code <prefix>budget:<budget>:<scope value, percent-encoded>:<start>} (fields {@code st},
 * {@code sc}: spent tokens and nano-dollars; {@code lt}, {@code lc}: the limit it was last reserved
 * under; {@code end}; the reservations), expiring {@link BudgetCalls#MARGIN_MILLIS} after its end;
 * the sorted set {@code <prefix>budget-windows} indexes windows by their end, and
 * {@code <prefix>budget-named} the windows of scope values callers named (session ids, tenants no
 * key vouches for) by their last reservation, the least recent forgotten beyond a bound; the hash
 * {@code <prefix>budget-instances} holds each instance's last contact (Redis's clock), which gives
 * the number of instances a {@code share} divides by. Pure functions.
 */
final class BudgetKeys {

    private BudgetKeys() {
    }

    /** The Redis key of {@code window}. */
    static String window(String prefix, WindowKey window) {
        return prefix + "budget:" + window.budget() + ":" + URLEncoder.encode(window.scopeValue(), StandardCharsets.UTF_8)
                + ":" + window.startMillis();
    }

    /** The window a key of {@link #window} names, or {@code null} for another key. */
    static WindowKey windowOf(String prefix, String key) {
        String start = prefix + "budget:";
        if (!key.startsWith(start)) {
            return null;
        }
        String[] parts = key.substring(start.length()).split(":", -1);
        if (parts.length != 3 || !parts[2].matches("-?\\d{1,19}")) {
            return null;
        }
        return new WindowKey(parts[0], URLDecoder.decode(parts[1], StandardCharsets.UTF_8), Long.parseLong(parts[2]));
    }

    /** The index of windows by their end. */
    static String index(String prefix) {
        return prefix + "budget-windows";
    }

    /** The windows of scope values callers named, by their last reservation. */
    static String named(String prefix) {
        return prefix + "budget-named";
    }

    /** The instances' last contacts. */
    static String instances(String prefix) {
        return prefix + "budget-instances";
    }
}
