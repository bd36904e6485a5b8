package io.agentfuse.gateway.mcp;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A real MCP server made with the official MCP Java SDK ({@code McpServer.sync} on its
 * streamable-HTTP servlet transport, 2025-11-25 sessions) in an embedded Tomcat on 127.0.0.1, with
 * three tools: {@code echo} (answers its {@code text}), {@code fail} (always a result with
 * {@code isError: true}) and {@code slow} (answers after a minute, or when the server stops). A
 * filter in front of the SDK's servlet keeps every JSON-RPC message the server received, so a
 * test can see what reached it ({@link #received}). {@link #kill()} stops it: its port refuses
 * connections from then on.
 */
final class SdkMcpServer implements AutoCloseable {

    private final Tomcat tomcat;
    private final McpSyncServer server;
    private final List<JsonObject> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch stopping = new CountDownLatch(1);
    private boolean stopped;

    private SdkMcpServer(String name) throws LifecycleException, IOException {
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .mcpEndpoint("/mcp").build();
        server = McpServer.sync(transport)
                .serverInfo(name, "1.0.0")
                .capabilities(ServerCapabilities.builder().tools(true).build())
                .tools(tool("echo", "Echoes its text", (arguments) -> CallToolResult.builder()
                                .addTextContent(name + ": " + arguments.getOrDefault("text", "")).build()),
                        tool("fail", "Always fails", arguments -> CallToolResult.builder()
                                .addTextContent("backend of " + name + " down").isError(true).build()),
                        tool("slow", "Takes a minute", arguments -> {
                            awaitStop();
                            return CallToolResult.builder().addTextContent("late").build();
                        }))
                .build();
        tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("sdk-mcp-").toString());
        Connector connector = new Connector();
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "mcp", transport).setAsyncSupported(true);
        context.addServletMappingDecoded("/mcp", "mcp");
        FilterDef recorder = new FilterDef();
        recorder.setFilterName("recorder");
        recorder.setFilter(new Recorder());
        recorder.setAsyncSupported("true");
        context.addFilterDef(recorder);
        FilterMap mapping = new FilterMap();
        mapping.setFilterName("recorder");
        mapping.addURLPattern("/mcp");
        context.addFilterMap(mapping);
        tomcat.start();
    }

    /** Starts a server whose tools say {@code name} in their answers. */
    static SdkMcpServer start(String name) {
        try {
            return new SdkMcpServer(name);
        } catch (LifecycleException | IOException e) {
            throw new IllegalStateException("the MCP SDK server " + name + " did not start", e);
        }
    }

    /** Its MCP endpoint. */
    String url() {
        return "http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/mcp";
    }

    /** The JSON-RPC messages of method {@code method} it received, oldest first. */
    List<JsonObject> received(String method) {
        return received.stream().filter(message -> method.equals(message.getString("method"))).toList();
    }

    /** How many calls of {@code tool} reached it. */
    long calls(String tool) {
        return received("tools/call").stream()
                .filter(call -> tool.equals(call.getJsonObject("params").getString("name"))).count();
    }

    /** Stops it at once. */
    void kill() {
        stopping.countDown();
        if (!stopped) {
            stopped = true;
            try {
                tomcat.stop();
                tomcat.destroy();
            } catch (LifecycleException e) {
                throw new IllegalStateException(e);
            }
            server.close();
        }
    }

    @Override
    public void close() {
        kill();
    }

    private void awaitStop() {
        try {
            stopping.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static SyncToolSpecification tool(String name, String description,
                                               java.util.function.Function<Map<String, Object>, CallToolResult> answer) {
        Tool tool = Tool.builder().name(name).description(description)
                .inputSchema(Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string"))))
                .build();
        return SyncToolSpecification.builder().tool(tool)
                .callHandler((exchange, request) -> answer.apply(request.arguments() == null ? Map.of() : request.arguments()))
                .build();
    }

    /** Keeps the body of every POST, then hands the request on with the same bytes. */
    private final class Recorder implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            HttpServletRequest http = (HttpServletRequest) request;
            if (!"POST".equals(http.getMethod())) {
                chain.doFilter(request, response);
                return;
            }
            byte[] body = http.getInputStream().readAllBytes();
            try {
                received.add(new JsonObject(new String(body, StandardCharsets.UTF_8)));
            } catch (DecodeException | ClassCastException e) {
                // not a JSON-RPC message: the SDK answers it as it sees fit
            }
            chain.doFilter(new Replayed(http, body), response);
        }
    }

    /** A request whose body is read again from bytes already read. */
    private static final class Replayed extends HttpServletRequestWrapper {
        private final byte[] body;

        Replayed(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream bytes = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return bytes.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("read synchronously");
                }

                @Override
                public int read() {
                    return bytes.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    return bytes.read(buffer, offset, length);
                }
            };
        }

        @Override
        public java.io.BufferedReader getReader() {
            return new java.io.BufferedReader(new java.io.InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
