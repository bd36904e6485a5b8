package io.agentfuse.gateway.mcp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
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

    /**
     * One that takes at most a few kilobytes of a request into its socket's buffers: what a sender
     * has beyond that stays queued on the sender's side.
     */
    static SilentServer withSmallBuffers() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReceiveBufferSize(4_096);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        return new SilentServer(socket);
    }

    String url() {
        return "http://127.0.0.1:" + socket.getLocalPort() + "/mcp";
    }

    /** How many connections it has accepted. */
    int connections() {
        return accepted.size();
    }

    /**
     * Starts reading its first connection, at last, and says how many bytes came before the
     * connection ended (closed or reset by the other side), reading for at most {@code patience}.
     */
    long bytesUntilTheFirstConnectionEnds(Duration patience) throws IOException {
        Socket connection = accepted.get(0);
        connection.setSoTimeout((int) patience.toMillis());
        byte[] buffer = new byte[65_536];
        long read = 0;
        try {
            for (int n; (n = connection.getInputStream().read(buffer)) >= 0; ) {
                read += n;
            }
        } catch (SocketException reset) {
            // ended by a reset: what was read before it is the count
        }
        return read;
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
