/**
 * The Linux calls the {@code et} server needs (sockets, epoll, eventfd, errno) as one interface,
 * {@link niolab.epoll.Syscalls}, over two bindings: JNA direct mapping, and the FFM API on JDK 22+
 * ({@link niolab.epoll.Bindings}). No lab logic.
 */
package niolab.epoll;
