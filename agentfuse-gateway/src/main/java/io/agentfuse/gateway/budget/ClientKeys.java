package io.agentfuse.gateway.budget;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ClientConfig;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The gateway's client keys (docs/design.md §11) and the one place a request's {@link Caller} is
 * told: with {@code clients:}, a request must carry one of their keys —
 * {@code Authorization: Bearer <key>}, or else {@code x-api-key: <key>}, or else Google's
 * {@code x-goog-api-key: <key>} or {@code ?key=<key>} (the Gemini API's callers) — or it is refused with 401
 * {@code invalid_api_key}; its tenant is then its client's, and a {@code x-agentfuse-tenant} it sends
 * is ignored. Without {@code clients:}, the tenant is the {@code x-agentfuse-tenant} header (for a
 * gateway behind an authenticating proxy). The session is always {@code x-agentfuse-session}.
 *
 * <p>Keys are compared in constant time: the SHA-256 digests of the key sent and of every client's
 * key, all compared, so neither the time nor an early exit tells how much of a key was right. Keys
 * are never logged nor put in a message. Tenant and session values are 1 to 128 visible ASCII
 * characters, else the request is a 400 {@code invalid_request} naming the header.
 *
 * <p>Thread-safe; reads {@code clients:} from the configuration in force (reloads), hashing the
 * keys once per configuration.
 *
 * <pre>{@code
 * Caller caller = clientKeys.identify(request);        // throws 401 invalid_api_key
 * Optional<String> owner = clientKeys.clientName(request); // for what belongs to one caller (MCP sessions)
 * }</pre>
 */
public final class ClientKeys {

    /** The header that names the tenant without {@code clients:}. */
    public static final String TENANT_HEADER = "x-agentfuse-tenant";
    /** The header that names an agent session. */
    public static final String SESSION_HEADER = "x-agentfuse-session";
    private static final String BEARER = "bearer ";
    private static final String GOOGLE_KEY_HEADER = "x-goog-api-key";
    private static final String QUERY_KEY = "key";
    private static final int MAX_VALUE_LENGTH = 128;

    private final Supplier<AgentfuseConfig> config;
    private volatile Digests digests = new Digests(Map.of(), new byte[0][], new ClientConfig[0]);

    /** Keys of the configuration {@code config} gives, read on every request. */
    public ClientKeys(Supplier<AgentfuseConfig> config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** Whether callers need a key: {@code clients:} is configured. */
    public boolean required() {
        return !config.get().clients().isEmpty();
    }

    /**
     * The caller of a request with {@code headers}.
     *
     * @throws GatewayException 401 {@code invalid_api_key} with {@code clients:} and no known key; 400
     *                          {@code invalid_request} for a malformed tenant or session header
     */
    public Caller identify(MultiMap headers) {
        return identify(headers, null);
    }

    /** {@link #identify(MultiMap)} of {@code request}'s headers, with its {@code key} query parameter as Google's callers send it. */
    public Caller identify(HttpServerRequest request) {
        return identify(request.headers(), queryKey(request));
    }

    private Caller identify(MultiMap headers, String queryKey) {
        String session = checked(headers, SESSION_HEADER);
        if (!required()) {
            return new Caller(null, checked(headers, TENANT_HEADER), session);
        }
        ClientConfig client = authenticate(headers, queryKey);
        return new Caller(client.name(), client.tenant(), session);
    }

    /**
     * The name of the client whose key {@code request} carries, without refusing anything: empty
     * without {@code clients:} or without a known key. For what belongs to one caller.
     */
    public Optional<String> clientName(HttpServerRequest request) {
        if (!required()) {
            return Optional.empty();
        }
        try {
            return Optional.of(authenticate(request.headers(), queryKey(request)).name());
        } catch (GatewayException unknown) {
            return Optional.empty();
        }
    }

    private ClientConfig authenticate(MultiMap headers, String queryKey) {
        String key = presented(headers);
        if (key == null) {
            key = queryKey;
        }
        if (key == null) {
            throw new GatewayException(GatewayError.INVALID_API_KEY, "this gateway needs a client key: send "
                    + "Authorization: Bearer <key>, x-api-key: <key> or x-goog-api-key: <key>");
        }
        Digests current = digestsOf(config.get().clients());
        byte[] given = sha256(key);
        ClientConfig match = null;
        for (int i = 0; i < current.keys.length; i++) {
            // Every key is compared, a match or not, so that the time taken tells nothing.
            if (MessageDigest.isEqual(given, current.keys[i]) && match == null) {
                match = current.clients[i];
            }
        }
        if (match == null) {
            throw new GatewayException(GatewayError.INVALID_API_KEY, "the client key is not valid for this gateway");
        }
        return match;
    }

    /** The key the request's headers present: the bearer token of {@code Authorization}, else {@code x-api-key}, else {@code x-goog-api-key}. */
    private static String presented(MultiMap headers) {
        String authorization = headers.get("authorization");
        if (authorization != null && authorization.length() > BEARER.length()
                && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return authorization.substring(BEARER.length()).strip();
        }
        String apiKey = nonBlank(headers.get("x-api-key"));
        return apiKey != null ? apiKey : nonBlank(headers.get(GOOGLE_KEY_HEADER));
    }

    /** The {@code key} query parameter, Google's other way to send a key; {@code null} when absent or blank. */
    private static String queryKey(HttpServerRequest request) {
        String query = request.query();
        return query == null || !query.contains(QUERY_KEY + "=") ? null : nonBlank(request.getParam(QUERY_KEY));
    }

    private static String nonBlank(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private Digests digestsOf(Map<String, ClientConfig> clients) {
        Digests current = digests;
        if (current.source() != clients) {
            ClientConfig[] all = clients.values().toArray(ClientConfig[]::new);
            byte[][] keys = new byte[all.length][];
            for (int i = 0; i < all.length; i++) {
                keys[i] = sha256(all[i].key());
            }
            current = new Digests(clients, keys, all);
            digests = current;
        }
        return current;
    }

    /** {@code name}'s value, which must be 1 to 128 visible ASCII characters; {@code null} when absent. */
    private static String checked(MultiMap headers, String name) {
        String value = headers.get(name);
        if (value == null) {
            return null;
        }
        boolean visible = !value.isEmpty() && value.length() <= MAX_VALUE_LENGTH
                && value.chars().allMatch(c -> c > 0x20 && c < 0x7f);
        if (!visible) {
            throw new GatewayException(GatewayError.INVALID_REQUEST, "the header " + name
                    + " must be 1 to " + MAX_VALUE_LENGTH + " visible ASCII characters without spaces");
        }
        return value;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The digests of one configuration's keys, in the order of its clients. */
    private record Digests(Map<String, ClientConfig> source, byte[][] keys, ClientConfig[] clients) {
    }
}
