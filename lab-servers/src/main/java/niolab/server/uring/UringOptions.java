package niolab.server.uring;

import picocli.CommandLine.Option;

/** uring's own options: a mixin of {@code uring}, and of {@code mp}, which hands them to its uring workers. */
public final class UringOptions {
    @Option(names = "--uring-mode", converter = UringMode.Converter.class,
            description = "basic (a recv per request, a buffer per connection), multishot (multishot accept and recv,"
                    + " buffers from a shared pool), bufring (the same pool as a buffer ring) or sqpoll (bufring,"
                    + " a kernel thread taking the submissions: IORING_SETUP_SQPOLL)."
                    + " Default: the best this kernel supports, sqpoll aside.")
    UringMode mode;
}
