package niolab.epoll;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@code struct sockaddr_in} and {@code sockaddr_in6}, laid out by hand in a ByteBuffer (for a
 * call, the {@link NativeBuffer#view()} of the memory whose address the call is given).
 *
 * <pre>
 *   sockaddr_in  (16 bytes): u16 family | u16 port (big-endian) | 4-byte address | 8 zero bytes
 *   sockaddr_in6 (28 bytes): u16 family | u16 port (big-endian) | u32 flowinfo | 16-byte address | u32 scope_id
 * </pre>
 * The family and the scope id are in host byte order; the port and the address in network byte order.
 */
public final class SockAddr {
    public static final int IN_SIZE = 16;
    public static final int IN6_SIZE = 28;
    /** Large enough for either: what getsockname is given. */
    public static final int MAX_SIZE = IN6_SIZE;

    private SockAddr() {
    }

    /** Writes the sockaddr for {@code address:port} at index 0 of {@code to}; returns its size. */
    public static int put(ByteBuffer to, InetAddress address, int port) {
        ByteBuffer b = to.duplicate().order(ByteOrder.nativeOrder());
        boolean v6 = address instanceof Inet6Address;
        int size = v6 ? IN6_SIZE : IN_SIZE;
        for (int i = 0; i < size; i++) b.put(i, (byte) 0);
        b.putShort(0, (short) (v6 ? Linux.AF_INET6 : Linux.AF_INET));
        b.put(2, (byte) (port >>> 8));
        b.put(3, (byte) port);
        b.position(v6 ? 8 : 4);
        b.put(address.getAddress());
        if (v6) b.putInt(24, ((Inet6Address) address).getScopeId());
        return size;
    }

    /** Reads back a sockaddr_in or sockaddr_in6 at index 0 of {@code from} (as filled by getsockname). */
    public static InetSocketAddress parse(ByteBuffer from) throws UnknownHostException {
        ByteBuffer b = from.duplicate().order(ByteOrder.nativeOrder());
        int family = b.getShort(0);
        int port = ((b.get(2) & 0xff) << 8) | (b.get(3) & 0xff);
        byte[] ip;
        if (family == Linux.AF_INET6) {
            ip = new byte[16];
            b.position(8);
        } else if (family == Linux.AF_INET) {
            ip = new byte[4];
            b.position(4);
        } else {
            throw new UnknownHostException("address family " + family);
        }
        b.get(ip);
        return new InetSocketAddress(InetAddress.getByAddress(ip), port);
    }
}
