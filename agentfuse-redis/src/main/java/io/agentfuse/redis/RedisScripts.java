package io.agentfuse.redis;

/**
 * The Lua scripts the store runs, each one atomic in Redis: publishing a change with its version,
 * taking and giving back the probe lease, and summing the fleet's windows. Versions and times come
 * from Redis's own clock ({@code TIME}), so instances' clocks never order changes.
 */
final class RedisScripts {

    /** Stores the change under its breaker's key with the next version and publishes it, atomically. */
    static final String PUBLISH = """
            local last = 0
            local current = redis.call('GET', KEYS[1])
            if current then last = tonumber(string.match(current, '^v=(%d+)')) or 0 end
            local time = redis.call('TIME')
            local version = math.max(last + 1, tonumber(time[1]) * 1000000 + tonumber(time[2]))
            local record = 'v=' .. string.format('%.0f', version) .. '&' .. ARGV[1]
            redis.call('SET', KEYS[1], record)
            redis.call('PUBLISH', ARGV[2], record)
            return version
            """;

    /** Takes or renews the probe lease for ARGV[1] (the holder) for ARGV[2] milliseconds; 1 if it is the holder's. */
    static final String LEASE = """
            if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
              return 1
            end
            return 0
            """;

    /** Deletes the probe lease if ARGV[1] holds it. */
    static final String RELEASE = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
            return 0
            """;

    /**
     * Sets ARGV[1]'s window (ARGV[2] calls, ARGV[3] hits, of generation ARGV[5], stamped with
     * Redis's clock) and sums the windows of that generation shared within the last ARGV[4]
     * milliseconds; older ones (instances gone, generations past) are dropped.
     */
    static final String WINDOW = """
            local time = redis.call('TIME')
            local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
            local maxAge = tonumber(ARGV[4])
            redis.call('HSET', KEYS[1], ARGV[1],
              ARGV[2] .. ',' .. ARGV[3] .. ',' .. string.format('%.0f', now) .. ',' .. ARGV[5])
            redis.call('PEXPIRE', KEYS[1], maxAge)
            local calls, hits = 0, 0
            local all = redis.call('HGETALL', KEYS[1])
            for i = 1, #all, 2 do
              local c, h, at, generation = string.match(all[i + 1], '^(%d+),(%d+),(%d+),(%d+)$')
              if not c or now - tonumber(at) > maxAge then
                redis.call('HDEL', KEYS[1], all[i])
              elseif generation == ARGV[5] then
                calls = calls + tonumber(c)
                hits = hits + tonumber(h)
              end
            end
            return {calls, hits}
            """;

    private RedisScripts() {
    }
}
