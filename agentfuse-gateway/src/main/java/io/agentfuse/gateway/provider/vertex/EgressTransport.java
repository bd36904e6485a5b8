package io.agentfuse.gateway.provider.vertex;

import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.auth.http.HttpTransportFactory;
import io.agentfuse.gateway.dialect.UpstreamAuth;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.List;

/**
 * google-auth-library's HTTP transport for a Vertex AI provider's token requests, routed as the
 * provider calls are: each connection goes through the proxy the gateway's egress choice gives its
 * URL ({@code server.egressProxy}, {@code HTTPS_PROXY}, {@code NO_PROXY}; {@link UpstreamAuth.Means}),
 * with the proxy's login when its URL has one. Without it the library would connect directly, and a
 * gateway that may only reach the internet through a proxy could never fetch a token.
 *
 * <p>Immutable and thread-safe; one {@link NetHttpTransport} serves every token request of a provider.
 */
final class EgressTransport implements HttpTransportFactory {

    private final HttpTransport transport;

    EgressTransport(UpstreamAuth.Means means) {
        this.transport = new NetHttpTransport.Builder().setConnectionFactory(url -> open(url, means)).build();
    }

    @Override
    public HttpTransport create() {
        return transport;
    }

    private static HttpURLConnection open(URL url, UpstreamAuth.Means means) throws IOException {
        List<Proxy> proxies;
        try {
            proxies = means.proxies().select(url.toURI());
        } catch (URISyntaxException e) {
            throw new IOException("the token endpoint's URL " + url + " is not a valid URI", e);
        }
        Proxy proxy = proxies.isEmpty() ? Proxy.NO_PROXY : proxies.get(0);
        HttpURLConnection connection = (HttpURLConnection) url.openConnection(proxy);
        connection.setAuthenticator(means.proxyLogin());
        return connection;
    }
}
