/** The FFM binding of {@link niolab.epoll.Syscalls} (JDK 22+): compiled only by a build on such a JDK, reached only through {@code Bindings.ffm()}. */
package niolab.epoll.ffm;
