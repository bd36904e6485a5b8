package io.agentfuse.gateway.mcp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A server on 127.0.0.1 that accepts connections, reads nothing and never answers: a peer slower
 * than any timeout, without a timer of its own.
 */
final class SilentServer implements AutoCloseable {

    private final ServerSocket socket;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();

    private SilentServer(ServerSocket socket) {
        this.socket = socket;
        Thread acceptor = new Thread(this::accept, "silent-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    static SilentServer start() throws IOException {
        return new SilentServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    }

    String url() {
        return "http://127.0.0.1:" + socket.getLocalPort() + "/mcp";
    }

    /** How many connections it has accepted. */
    int connections() {
        return accepted.size();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                accepted.add(socket.accept());
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket connection : accepted) {
            connection.close();
        }
    }
}
