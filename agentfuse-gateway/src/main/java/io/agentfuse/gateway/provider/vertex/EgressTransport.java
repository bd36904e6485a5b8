package io.agentfuse.gateway.provider.vertex;

import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.LowLevelHttpRequest;
import com.google.api.client.http.LowLevelHttpResponse;
import com.google.auth.http.HttpTransportFactory;
import io.agentfuse.gateway.dialect.AuthRequests;
import io.agentfuse.gateway.dialect.EgressProxyException;
import io.agentfuse.gateway.dialect.UpstreamAuth;
import io.vertx.core.Context;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/**
 * google-auth-library's HTTP transport for a Vertex AI provider's token requests: each goes out on the
 * gateway's own client stack ({@link UpstreamAuth.Means#requests}), as the provider calls do — through
 * the egress proxy they take ({@code server.egressProxy}, {@code HTTPS_PROXY}, {@code NO_PROXY}), with
 * the proxy's login for a {@code CONNECT} tunnel and a proxied request alike. The JDK's
 * {@code HttpURLConnection}, which served here before, sends no Basic login through a tunnel unless a
 * JVM-wide property allows it, and cannot answer a proxy's 407 to a streamed {@code POST}: behind a
 * proxy that asks for a login, no token came, and the proxy's 407 was read as the token endpoint's
 * refusal of the service account.
 *
 * <p>google-http-client's requests are synchronous: {@link LowLevelHttpRequest#execute()} waits for the
 * answer, which arrives on an event loop. google-auth-library calls it on the executor it is handed,
 * and {@link VertexAccessTokens} hands it Vert.x's workers ({@link UpstreamAuth.Means#blocking}), never
 * the caller's thread; a request on an event loop fails at once rather than wait for an answer that
 * the same loop would have to deliver. A proxy that refuses the login or cannot be reached fails it with
 * {@link EgressProxyException}, unchecked, so that the library neither retries it nor reports it as the
 * token endpoint's; any other failure is an {@link IOException}, as the JDK client's were.
 *
 * <p>Immutable and thread-safe; one per provider.
 */
final class EgressTransport extends HttpTransport implements HttpTransportFactory {

    /** google-http-client's own default, for a timeout of 0 ("none"): a request to a proxy or token endpoint that hangs ends. */
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);

    private final AuthRequests requests;

    EgressTransport(UpstreamAuth.Means means) {
        this.requests = means.requests();
    }

    @Override
    public HttpTransport create() {
        return this;
    }

    @Override
    protected LowLevelHttpRequest buildRequest(String method, String url) {
        return new Outgoing(method, URI.create(url));
    }

    /** One token request, sent whole when the library executes it. */
    private final class Outgoing extends LowLevelHttpRequest {

        private final String method;
        private final URI uri;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private Duration connectTimeout = DEFAULT_TIMEOUT;
        private Duration idleTimeout = DEFAULT_TIMEOUT;

        Outgoing(String method, URI uri) {
            this.method = method;
            this.uri = uri;
        }

        @Override
        public void addHeader(String name, String value) {
            headers.merge(name, value, (first, next) -> first + ", " + next);
        }

        @Override
        public void setTimeout(int connectMillis, int readMillis) {
            connectTimeout = connectMillis > 0 ? Duration.ofMillis(connectMillis) : DEFAULT_TIMEOUT;
            idleTimeout = readMillis > 0 ? Duration.ofMillis(readMillis) : DEFAULT_TIMEOUT;
        }

        @Override
        public LowLevelHttpResponse execute() throws IOException {
            if (Context.isOnEventLoopThread()) {
                throw new IllegalStateException("a token request of " + uri + " would wait on an event loop for an answer"
                        + " that loop delivers: token requests run on the blocking executor");
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            if (getStreamingContent() != null) {
                getStreamingContent().writeTo(body);
            }
            if (getContentType() != null) {
                headers.putIfAbsent("Content-Type", getContentType());
            }
            if (getContentEncoding() != null) {
                headers.putIfAbsent("Content-Encoding", getContentEncoding());
            }
            AuthRequests.Request request = new AuthRequests.Request(method, uri, headers, body.toByteArray(),
                    connectTimeout, idleTimeout);
            try {
                return new Incoming(requests.send(request).toCompletableFuture().get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the token request of " + uri + " was under way");
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof EgressProxyException proxy) {
                    throw proxy; // the proxy's, not the token endpoint's: neither retried nor wrapped by the library
                }
                if (cause instanceof IOException io) {
                    throw io;
                }
                // Vert.x reports a closed connection or a timeout unchecked: as an IOException the library
                // retries it, as it retried the JDK client's
                throw new IOException("the token request of " + uri + " failed: " + cause.getMessage(), cause);
            }
        }
    }

    /** A token endpoint's answer, read whole. */
    private static final class Incoming extends LowLevelHttpResponse {

        private final AuthRequests.Answer answer;

        Incoming(AuthRequests.Answer answer) {
            this.answer = answer;
        }

        @Override
        public InputStream getContent() {
            return new ByteArrayInputStream(answer.body());
        }

        @Override
        public String getContentEncoding() {
            return answer.header("content-encoding");
        }

        @Override
        public long getContentLength() {
            return answer.body().length;
        }

        @Override
        public String getContentType() {
            return answer.header("content-type");
        }

        @Override
        public String getStatusLine() {
            return "HTTP/1.1 " + answer.status() + (answer.reason().isEmpty() ? "" : " " + answer.reason());
        }

        @Override
        public int getStatusCode() {
            return answer.status();
        }

        @Override
        public String getReasonPhrase() {
            return answer.reason();
        }

        @Override
        public int getHeaderCount() {
            return answer.headers().size();
        }

        @Override
        public String getHeaderName(int index) {
            return answer.headers().get(index).getKey();
        }

        @Override
        public String getHeaderValue(int index) {
            return answer.headers().get(index).getValue();
        }
    }
}
