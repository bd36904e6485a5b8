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
 * {@code x-goog-api-key: <key>}, or else, on the Gemini API's routes only, {@code ?key=<key>} — or it is
 * refused with 401 {@code invalid_api_key}, whose message names the header it read (never a value); its
 * tenant is then its client's, and a {@code x-agentfuse-tenant} it sends is ignored. A key in a URL
 * ends up in the access logs of every proxy on the way, so it is taken only from the callers that send
 * nothing else (Google's SDKs, Gemini CLI); elsewhere a {@code key} parameter is no credential, as
 * Envoy and LiteLLM read none, and a 401 says so. Without {@code clients:}, the tenant is the
 * {@code x-agentfuse-tenant} header (for a gateway behind an authenticating proxy). The session is
 * always {@code x-agentfuse-session}.
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
 * Caller caller = clientKeys.identify(request, false); // throws 401 invalid_api_key
 * Optional<String> owner = clientKeys.clientName(request); // for what belongs to one caller (MCP sessions)
 * }</pre>
 */
public final class ClientKeys {

    /** The header that names the tenant without {@code clients:}. */
    public static final String TENANT_HEADER = "x-agentfuse-tenant";
    /** The header that names an agent session. */
    public static final String SESSION_HEADER = "x-agentfuse-session";
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
        return identify(headers, (PresentedKey) null);
    }

    /**
     * {@link #identify(MultiMap)} of {@code request}'s headers; on a {@code googleRoute}
     * ({@link io.agentfuse.gateway.gemini.GeminiMethodPath#isGoogleRoute}) its {@code key} query
     * parameter too, as Google's callers send it.
     */
    public Caller identify(HttpServerRequest request, boolean googleRoute) {
        return identify(request.headers(), googleRoute ? PresentedKey.query(request) : PresentedKey.ignoredQuery(request));
    }

    private Caller identify(MultiMap headers, PresentedKey query) {
        String session = checked(headers, SESSION_HEADER);
        if (!required()) {
            return new Caller(null, checked(headers, TENANT_HEADER), session);
        }
        ClientConfig client = authenticate(headers, query);
        return new Caller(client.name(), client.tenant(), session);
    }

    /**
     * The name of the client whose key {@code request}'s headers carry, without refusing anything:
     * empty without {@code clients:} or without a known key. For what belongs to one caller (MCP
     * sessions: no route of Google's, so no {@code ?key=}).
     */
    public Optional<String> clientName(HttpServerRequest request) {
        if (!required()) {
            return Optional.empty();
        }
        try {
            return Optional.of(authenticate(request.headers(), null).name());
        } catch (GatewayException unknown) {
            return Optional.empty();
        }
    }

    /** @param query the {@code key} query parameter when it counts, {@link PresentedKey#IGNORED_QUERY} when it was sent where it does not, else {@code null} */
    private ClientConfig authenticate(MultiMap headers, PresentedKey query) {
        PresentedKey presented = PresentedKey.in(headers);
        if (presented == null && query != null && query != PresentedKey.IGNORED_QUERY) {
            presented = query;
        }
        if (presented == null) {
            throw new GatewayException(GatewayError.INVALID_API_KEY, "this gateway needs a client key: send "
                    + "Authorization: Bearer <key>, x-api-key: <key> or x-goog-api-key: <key>"
                    + (query == PresentedKey.IGNORED_QUERY ? " (a key query parameter is read on the Gemini API's routes"
                    + " only, /v1beta/...: a key in a URL lands in access logs)" : ""));
        }
        Digests current = digestsOf(config.get().clients());
        byte[] given = sha256(presented.key());
        ClientConfig match = null;
        for (int i = 0; i < current.keys.length; i++) {
            // Every key is compared, a match or not, so that the time taken tells nothing.
            if (MessageDigest.isEqual(given, current.keys[i]) && match == null) {
                match = current.clients[i];
            }
        }
        if (match == null) {
            throw new GatewayException(GatewayError.INVALID_API_KEY, "the client key in " + presented.source()
                    + " is not valid for this gateway" + PresentedKey.unread(headers, presented));
        }
        return match;
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
