package io.agentfuse.redis;

/**
 * The Lua scripts the store runs, each one atomic in Redis: publishing a change with its version,
 * reading a record, taking and giving back the probe lease, and summing the fleet's windows.
 * Versions and times come from Redis's own clock ({@code TIME}), so instances' clocks never order
 * changes. Each script names its keys ({@code KEYS}), arguments ({@code ARGV}) and answer; a script
 * that needs another atomic step of the fleet (a budget's reserve and settle) is one more constant
 * here, run through the same guarded connection.
 *
 * <p>What Redis holds is input like any other: a record is trusted only if this store could have
 * written it ({@link #TRUSTED}: a string of at most {@link SharedStateCodec#MAX_RECORD_CHARS}
 * bytes whose version is at most {@link SharedStateCodec#MAX_VERSION_AHEAD_MICROS} ahead of Redis's
 * clock). Anything else under a record's key is treated as no record, so it can neither stop
 * versions from growing (a version of 2^63-1 once made the next one 2^63, which no instance could
 * read) nor make an instance wait on it. A probe lease without an expiry is not one of ours either.
 */
final class RedisScripts {

    /**
     * Helpers every script starts with: {@code clock()}, Redis's time in microseconds, and
     * {@code trusted(key, now)}, the record under {@code key} and its version, or {@code nil, 0}.
     * Versions stay far below 2^53, where Lua's numbers are exact.
     */
    static final String TRUSTED = """
            local function clock()
              local time = redis.call('TIME')
              return tonumber(time[1]) * 1000000 + tonumber(time[2])
            end
            local function trusted(key, now)
              if redis.call('TYPE', key)['ok'] ~= 'string' or redis.call('STRLEN', key) > %d then return nil, 0 end
              local record = redis.call('GET', key)
              local version = tonumber(string.match(record, '^v=(%%d+)&'))
              if not version or version > now + %d then return nil, 0 end
              return record, version
            end
            """.formatted(SharedStateCodec.MAX_RECORD_CHARS, SharedStateCodec.MAX_VERSION_AHEAD_MICROS);

    /**
     * KEYS: the breaker's record, its probe lease; ARGV: the change without its version, the channel,
     * the record's TTL in milliseconds (0: none, {@link RecordRetention}). Stores the change with the
     * next version (at least the trusted record's + 1, at least Redis's clock in microseconds) and
     * that TTL (a record without one loses the old record's), ends the probe lease (the half-open it
     * was for is over) and publishes the change, atomically; answers the version.
     */
    static final String PUBLISH = TRUSTED + """
            local now = clock()
            local _, last = trusted(KEYS[1], now)
            local version = math.max(last + 1, now)
            local record = 'v=' .. string.format('%.0f', version) .. '&' .. ARGV[1]
            local ttl = tonumber(ARGV[3])
            if ttl > 0 then
              redis.call('SET', KEYS[1], record, 'PX', ttl)
            else
              redis.call('SET', KEYS[1], record)
            end
            redis.call('DEL', KEYS[2])
            redis.call('PUBLISH', ARGV[2], record)
            return version
            """;

    /** KEYS: the breaker's record. Answers the record if it is trusted, else nil. */
    static final String READ = TRUSTED + """
            local record = trusted(KEYS[1], clock())
            return record
            """;

    /**
     * KEYS: the probe lease, the breaker's record; ARGV: the holder, the TTL in milliseconds, the
     * version the holder saw last. Answers {@code {2, 0, record}} if the trusted record is newer than
     * that version (the holder missed a change); else takes or renews the lease and answers
     * {@code {1, ttl}}; else answers {@code {0, milliseconds left}} of another holder's lease. A
     * lease without an expiry, or not a string, is taken over; a longer one than the TTL is cut to it.
     */
    static final String LEASE = TRUSTED + """
            local now = clock()
            local record, version = trusted(KEYS[2], now)
            if record and version > tonumber(ARGV[3]) then return {2, 0, record} end
            local ttl = tonumber(ARGV[2])
            local kind = redis.call('TYPE', KEYS[1])['ok']
            if kind == 'none' or (kind == 'string' and redis.call('GET', KEYS[1]) == ARGV[1]) then
              redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
              return {1, ttl}
            end
            local left = redis.call('PTTL', KEYS[1])
            if kind ~= 'string' or left < 0 then
              redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
              return {1, ttl}
            end
            if left > ttl then
              redis.call('PEXPIRE', KEYS[1], ttl)
              left = ttl
            end
            return {0, left}
            """;

    /** KEYS: the probe lease; ARGV: the holder. Deletes the lease if the holder holds it. */
    static final String RELEASE = """
            if redis.call('TYPE', KEYS[1])['ok'] == 'string' and redis.call('GET', KEYS[1]) == ARGV[1] then
              return redis.call('DEL', KEYS[1])
            end
            return 0
            """;

    /**
     * KEYS: the window hash; ARGV: the instance, its calls, its hits, the maximum age in
     * milliseconds, the generation. Sets the instance's window (stamped with Redis's clock) and sums
     * the windows of that generation shared within the maximum age; older or malformed ones
     * (instances gone, generations past) are dropped, and a key of another type is replaced.
     * Answers {@code {calls, hits}}.
     */
    static final String WINDOW = """
            local time = redis.call('TIME')
            local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
            local maxAge = tonumber(ARGV[4])
            local kind = redis.call('TYPE', KEYS[1])['ok']
            if kind ~= 'hash' and kind ~= 'none' then redis.call('DEL', KEYS[1]) end
            redis.call('HSET', KEYS[1], ARGV[1],
              ARGV[2] .. ',' .. ARGV[3] .. ',' .. string.format('%.0f', now) .. ',' .. ARGV[5])
            redis.call('PEXPIRE', KEYS[1], maxAge)
            local calls, hits = 0, 0
            local all = redis.call('HGETALL', KEYS[1])
            for i = 1, #all, 2 do
              local c, h, at, generation = string.match(all[i + 1], '^(%d+),(%d+),(%d+),(%d+)$')
              if not c or #c > 15 or #h > 15 or now - tonumber(at) > maxAge then
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
