/** JNA bindings to the Linux calls the {@code et} server needs: sockets, epoll, errno. No lab logic. */
package niolab.epoll;
