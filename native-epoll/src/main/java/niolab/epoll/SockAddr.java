package niolab.epoll;

import com.sun.jna.Memory;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * {@code struct sockaddr_in} and {@code sockaddr_in6}, laid out by hand in native memory.
 *
 * <pre>
 *   sockaddr_in  (16 bytes): u16 family | u16 port (big-endian) | 4-byte address | 8 zero bytes
 *   sockaddr_in6 (28 bytes): u16 family | u16 port (big-endian) | u32 flowinfo | 16-byte address | u32 scope_id
 * </pre>
 * The family is in host byte order; the port and the address are in network byte order.
 */
public final class SockAddr {
    public static final int IN_SIZE = 16;
    public static final int IN6_SIZE = 28;
    /** Large enough for either: what getsockname is given. */
    public static final int MAX_SIZE = IN6_SIZE;

    private SockAddr() {
    }

    /** A sockaddr for {@code address:port}; its size is {@code memory.size()}. */
    public static Memory of(InetAddress address, int port) {
        byte[] ip = address.getAddress();
        boolean v6 = address instanceof Inet6Address;
        Memory m = new Memory(v6 ? IN6_SIZE : IN_SIZE);
        m.clear();
        m.setShort(0, (short) (v6 ? LibC.AF_INET6 : LibC.AF_INET));
        m.setByte(2, (byte) (port >>> 8));
        m.setByte(3, (byte) port);
        if (v6) {
            m.write(8, ip, 0, 16);
            m.setInt(24, ((Inet6Address) address).getScopeId());
        } else {
            m.write(4, ip, 0, 4);
        }
        return m;
    }

    /** Reads back a sockaddr_in or sockaddr_in6 (as filled by getsockname). */
    public static InetSocketAddress parse(Memory m) throws UnknownHostException {
        int family = m.getShort(0);
        int port = ((m.getByte(2) & 0xff) << 8) | (m.getByte(3) & 0xff);
        byte[] ip;
        if (family == LibC.AF_INET6) {
            ip = m.getByteArray(8, 16);
        } else if (family == LibC.AF_INET) {
            ip = m.getByteArray(4, 4);
        } else {
            throw new UnknownHostException("address family " + family);
        }
        return new InetSocketAddress(InetAddress.getByAddress(ip), port);
    }
}
