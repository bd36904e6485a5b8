package io.agentfuse.redis;

import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.WindowTally;

import java.util.ArrayList;
import java.util.List;

/**
 * The budgets' Lua scripts, each one atomic in Redis, with their keys and arguments (their replies are
 * read by {@link BudgetReplies}).
 * The rules are {@link WindowTally}'s, in Lua: a window admits while {@code spent + reserved < limit}
 * for every limited part; a reservation is a hash field {@code r:<id>} = {@code tokens,cost,expiresAt}
 * that lapses at {@code expiresAt} (an instance that died mid-call holds nothing for ever).
 *
 * <p>The keys every instance shares (the index, the instances, the caller-named windows) are
 * Redis's to anyone who can write there: one that holds another type would fail every script that
 * touches it, and so every budget call of the fleet. Every script first takes such a key for absent
 * ({@link #FLEET_KEYS}: deleted, begun again empty) and ends its reply with the keys it so replaced,
 * which the ledger says once ({@link BudgetRefusals#replaced}). What they held is rebuilt as calls
 * go on: each instance is seen again on its next call, each window indexed on its next reservation.
 *
 * <p>The keys are {@link BudgetKeys}'s. Pure functions but for the script texts.
 */
final class BudgetScripts {

    /**
     * What every script begins with: {@code own(key, kind)} deletes {@code key} when it holds
     * another type than {@code kind} and notes it in {@code replaced}, which the script's reply ends
     * with; {@code alive(key, instance, ttl, now)} records {@code instance} as seen {@code now} in the
     * hash {@code key} and counts those seen within {@code ttl} ms, forgetting the others and any
     * entry that is no time.
     */
    static final String FLEET_KEYS = """
            local replaced = {}
            local function own(key, kind)
              local held = redis.call('TYPE', key).ok
              if held ~= kind and held ~= 'none' then
                redis.call('DEL', key)
                table.insert(replaced, key)
              end
            end
            local function alive(key, instance, ttl, now)
              own(key, 'hash')
              redis.call('HSET', key, instance, now)
              local instances = 0
              local seen = redis.call('HGETALL', key)
              for i = 1, #seen, 2 do
                local at = tonumber(seen[i + 1])
                if at and now - at <= ttl then instances = instances + 1
                else redis.call('HDEL', key, seen[i]) end
              end
              return instances
            end
            """;

    /** The first element of {@link #RESERVE}'s reply when a window's spent does not read as a number. */
    static final long UNREADABLE = 2;

    /**
     * Reserves ARGV[2] tokens and ARGV[3] nano-dollars as ARGV[1] in every window of KEYS[1..n], or
     * in none: {@code {0, k, st, sc, rt, rc, instances}} for the first window k with nothing left,
     * {@code {2, k, instances}} ({@link #UNREADABLE}) for the first window whose spent does not read as a number
     * (nobody knows what it spent: it refuses until it is reset or expires), else
     * {@code {1, instances, st, sc, rt, rc, ...}} per window after the reservation; then the replaced
     * fleet keys. Also records the
     * instance ARGV[5] as seen now and counts those seen within ARGV[6] ms. A window expires ARGV[7] ms
     * after its end. Window k is one whose scope value a caller named when char k of ARGV[9] is
     * {@code 1}: it is noted in the sorted set KEYS[n + 3] by last use (in microseconds: no two
     * reservations tie), and beyond ARGV[8] of them the
     * least recently used are forgotten, as {@code LocalBudgetLedger} forgets them.
     */
    static final String RESERVE = FLEET_KEYS + """
            local n = #KEYS - 3
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            own(KEYS[n + 1], 'zset')
            own(KEYS[n + 3], 'zset')
            local instances = alive(KEYS[n + 2], ARGV[5], tonumber(ARGV[6]), now)
            local tokens, cost = tonumber(ARGV[2]), tonumber(ARGV[3])
            local state = {}
            for k = 1, n do
              local base = 10 + 3 * (k - 1)
              local lt, lc = tonumber(ARGV[base]), tonumber(ARGV[base + 1])
              local st, sc, rt, rc = 0, 0, 0, 0
              local fields = redis.call('HGETALL', KEYS[k])
              for i = 1, #fields, 2 do
                local f, v = fields[i], fields[i + 1]
                if f == 'st' then st = tonumber(v)
                elseif f == 'sc' then sc = tonumber(v)
                elseif string.sub(f, 1, 2) == 'r:' then
                  local a, b, e = string.match(v, '^(%d+),(%d+),(%d+)$')
                  if a and tonumber(e) > now then rt = rt + tonumber(a); rc = rc + tonumber(b)
                  else redis.call('HDEL', KEYS[k], f) end
                end
              end
              if st == nil or sc == nil then return {2, k, instances, replaced} end
              if (lt >= 0 and st + rt >= lt) or (lc >= 0 and sc + rc >= lc) then
                return {0, k, st, sc, rt, rc, instances, replaced}
              end
              state[k] = {st, sc, rt, rc}
            end
            local result = {1, instances}
            local named = false
            for k = 1, n do
              local base = 10 + 3 * (k - 1)
              redis.call('HSET', KEYS[k], 'r:' .. ARGV[1],
                ARGV[2] .. ',' .. ARGV[3] .. ',' .. string.format('%.0f', now + tonumber(ARGV[4])),
                'lt', ARGV[base], 'lc', ARGV[base + 1], 'end', ARGV[base + 2])
              redis.call('PEXPIREAT', KEYS[k], tonumber(ARGV[base + 2]) + tonumber(ARGV[7]))
              redis.call('ZADD', KEYS[n + 1], ARGV[base + 2], KEYS[k])
              if string.sub(ARGV[9], k, k) == '1' then
                redis.call('ZADD', KEYS[n + 3], tonumber(t[1]) * 1000000 + tonumber(t[2]), KEYS[k])
                named = true
              end
              local s = state[k]
              table.insert(result, s[1]); table.insert(result, s[2])
              table.insert(result, s[3] + tokens); table.insert(result, s[4] + cost)
            end
            local over = named and redis.call('ZCARD', KEYS[n + 3]) - tonumber(ARGV[8]) or 0
            if over > 0 then
              local oldest = redis.call('ZPOPMIN', KEYS[n + 3], over)
              for i = 1, #oldest, 2 do
                redis.call('DEL', oldest[i])
                redis.call('ZREM', KEYS[n + 1], oldest[i])
              end
            end
            table.insert(result, replaced)
            return result
            """;

    /**
     * The most a window counts spent in either part: 2<sup>62</sup>. A Lua number (a double) holds it
     * exactly, so the scripts' sums and replies read it back as written; {@code HINCRBY} past
     * 2<sup>63</sup> - 1 would fail the script and leave the window half-settled.
     */
    static final long MOST_SPENT = 1L << 62;

    /**
     * Settles the reservation ARGV[1] in every window of KEYS[1..n] as ARGV[2] tokens and ARGV[3]
     * nano-dollars used (a window without the reservation only counts them), each part saturating at
     * {@link #MOST_SPENT}; per window, ARGV[5..] holds its limit and end, for a window this creates;
     * KEYS[n + 1] is the index. A key that holds something other than a hash is no window of ours and
     * is left as it is, the others settled: the reply lists those windows' k, then the replaced fleet keys.
     */
    static final String SETTLE = FLEET_KEYS + """
            local most = %d
            local function add(key, field, amount)
              if tonumber(redis.call('HGET', key, field) or '0') + tonumber(amount) >= most then
                redis.call('HSET', key, field, string.format('%%.0f', most))
              else
                redis.call('HINCRBY', key, field, amount)
              end
            end
            local n = #KEYS - 1
            own(KEYS[n + 1], 'zset')
            local skipped = {}
            for k = 1, n do
              local base = 5 + 3 * (k - 1)
              local kind = redis.call('TYPE', KEYS[k]).ok
              if kind ~= 'hash' and kind ~= 'none' then
                table.insert(skipped, k)
              else
                redis.call('HDEL', KEYS[k], 'r:' .. ARGV[1])
                if tonumber(ARGV[2]) > 0 or tonumber(ARGV[3]) > 0 then
                  add(KEYS[k], 'st', ARGV[2])
                  add(KEYS[k], 'sc', ARGV[3])
                  redis.call('HSETNX', KEYS[k], 'lt', ARGV[base])
                  redis.call('HSETNX', KEYS[k], 'lc', ARGV[base + 1])
                  redis.call('HSETNX', KEYS[k], 'end', ARGV[base + 2])
                  redis.call('PEXPIREAT', KEYS[k], tonumber(ARGV[base + 2]) + tonumber(ARGV[4]))
                  redis.call('ZADD', KEYS[n + 1], ARGV[base + 2], KEYS[k])
                end
              end
            end
            table.insert(skipped, replaced)
            return skipped
            """.formatted(MOST_SPENT);

    /**
     * The windows of the index KEYS[1] that end after ARGV[1] (at most ARGV[2] of them), each as
     * {@code key, st, sc, rt, rc, lt, lc, end}, all as text; forgets index entries ended more than
     * ARGV[3] ms ago. Reads the windows by the names the index holds (a single Redis, not a cluster);
     * a key there that is not a hash, or whose spent does not read as a number, is left out; then the
     * replaced fleet keys.
     */
    static final String LIST = FLEET_KEYS + """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            own(KEYS[1], 'zset')
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[3]))
            local keys = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf', 'LIMIT', 0, tonumber(ARGV[2]))
            local out = {}
            for _, key in ipairs(keys) do
              local fields = redis.call('TYPE', key).ok == 'hash' and redis.call('HGETALL', key) or {}
              local st, sc, rt, rc, lt, lc, e = 0, 0, 0, 0, '-1', '-1', '0'
              if #fields > 0 then
                for i = 1, #fields, 2 do
                  local f, v = fields[i], fields[i + 1]
                  if f == 'st' then st = tonumber(v) elseif f == 'sc' then sc = tonumber(v)
                  elseif f == 'lt' then lt = v elseif f == 'lc' then lc = v elseif f == 'end' then e = v
                  elseif string.sub(f, 1, 2) == 'r:' then
                    local a, b, x = string.match(v, '^(%d+),(%d+),(%d+)$')
                    if a and tonumber(x) > now then rt = rt + tonumber(a); rc = rc + tonumber(b) end
                  end
                end
                if st == nil or sc == nil then fields = {} end
              end
              if #fields > 0 then
                for _, value in ipairs({key, string.format('%.0f', st), string.format('%.0f', sc),
                    string.format('%.0f', rt), string.format('%.0f', rc), lt, lc, e}) do
                  table.insert(out, value)
                end
              end
            end
            table.insert(out, replaced)
            return out
            """;

    /**
     * Forgets what the window KEYS[1] spent, keeping its reservations; 1 if it existed. A key there
     * that holds something other than a hash (no window of ours, which every script refuses) is deleted.
     */
    static final String RESET = """
            local kind = redis.call('TYPE', KEYS[1]).ok
            if kind == 'none' then return 0 end
            if kind ~= 'hash' then redis.call('DEL', KEYS[1]) return 1 end
            redis.call('HDEL', KEYS[1], 'st', 'sc')
            return 1
            """;

    /** Records the instance ARGV[1] as seen now in KEYS[1]: {@code {instances seen within ARGV[2] ms, replaced}}. */
    static final String PRESENCE = FLEET_KEYS + """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            return {alive(KEYS[1], ARGV[1], tonumber(ARGV[2]), now), replaced}
            """;

    /** The fields of one window in a {@link #LIST} reply. */
    static final int LISTED_FIELDS = 8;

    private BudgetScripts() {
    }

    /** The keys of {@link #RESERVE}: each window, then the index, the instances and the caller-named windows. */
    static String[] reserveKeys(String prefix, List<BudgetClaim> claims) {
        String[] keys = new String[claims.size() + 3];
        for (int i = 0; i < claims.size(); i++) {
            keys[i] = BudgetKeys.window(prefix, claims.get(i).key());
        }
        keys[claims.size()] = BudgetKeys.index(prefix);
        keys[claims.size() + 1] = BudgetKeys.instances(prefix);
        keys[claims.size() + 2] = BudgetKeys.named(prefix);
        return keys;
    }

    /** The arguments of {@link #RESERVE}. */
    static String[] reserveArgs(String id, BudgetAmount estimate, long reservationTtlMillis, String instance,
                                long presenceTtlMillis, long marginMillis, int maxNamed, List<BudgetClaim> claims) {
        StringBuilder named = new StringBuilder(claims.size());
        claims.forEach(claim -> named.append(claim.callerNamed() ? '1' : '0'));
        List<String> args = new ArrayList<>(List.of(id, Long.toString(estimate.tokens()), Long.toString(estimate.costNanos()),
                Long.toString(reservationTtlMillis), instance, Long.toString(presenceTtlMillis),
                Long.toString(marginMillis), Integer.toString(maxNamed), named.toString()));
        for (BudgetClaim claim : claims) {
            addLimitAndEnd(args, claim);
        }
        return args.toArray(String[]::new);
    }

    /** The keys of {@link #SETTLE}: the windows, then the index. */
    static String[] settleKeys(String prefix, List<BudgetClaim> claims) {
        String[] keys = new String[claims.size() + 1];
        for (int i = 0; i < claims.size(); i++) {
            keys[i] = BudgetKeys.window(prefix, claims.get(i).key());
        }
        keys[claims.size()] = BudgetKeys.index(prefix);
        return keys;
    }

    /** The arguments of {@link #SETTLE}. */
    static String[] settleArgs(String id, BudgetAmount used, long marginMillis, List<BudgetClaim> claims) {
        List<String> args = new ArrayList<>(List.of(id, Long.toString(used.tokens()), Long.toString(used.costNanos()),
                Long.toString(marginMillis)));
        for (BudgetClaim claim : claims) {
            addLimitAndEnd(args, claim);
        }
        return args.toArray(String[]::new);
    }

    private static void addLimitAndEnd(List<String> args, BudgetClaim claim) {
        args.add(Long.toString(claim.limit().tokens()));
        args.add(Long.toString(claim.limit().costNanos()));
        args.add(Long.toString(claim.endMillis()));
    }
}
