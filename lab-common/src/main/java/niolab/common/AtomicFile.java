package niolab.common;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A results file written whole or not at all: the bytes go to {@code NAME.partial} beside it and,
 * once all are on disk, a rename puts them in place. A writer killed at any moment leaves the old
 * file (or none) and at most a {@code .partial} one, never half of {@code NAME}, which a reader
 * would take for a complete run. rename(2) within one directory is atomic; scripts/lib.sh's
 * {@code atomic_write} is the same for the scripts.
 *
 * <pre>
 *   AtomicFile.write(json, text);                 // a file written at once
 *   try (AtomicFile f = AtomicFile.create(hlog)) { // a file written as a run goes
 *       f.out().write(...);
 *       f.commit();                               // without it, close() drops the .partial
 *   }
 * </pre>
 */
public final class AtomicFile implements AutoCloseable {
    /** What a file being written is called until it is complete. */
    public static final String PARTIAL = ".partial";

    private final Path target;
    private final Path partial;
    private final FileChannel channel;
    private final OutputStream out;
    private boolean done;

    private AtomicFile(Path target) throws IOException {
        this.target = target;
        this.partial = target.resolveSibling(target.getFileName() + PARTIAL);
        this.channel = FileChannel.open(partial, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        // closing the stream the writer wraps (a PrintStream's close) must not close the file before commit
        OutputStream raw = Channels.newOutputStream(channel);
        this.out = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                raw.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                raw.write(b, off, len);
            }
        };
    }

    /** Opens {@code target}'s {@code .partial} file; {@link #commit} puts it in place. */
    public static AtomicFile create(Path target) throws IOException {
        return new AtomicFile(target);
    }

    /** Writes {@code text} (UTF-8) to {@code target} whole: the old file stays until the new one is complete. */
    public static void write(Path target, String text) throws IOException {
        try (AtomicFile f = create(target)) {
            ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) f.channel.write(bytes);
            f.commit();
        }
    }

    /** Where the bytes go; closing it does not close the file. */
    public OutputStream out() {
        return out;
    }

    /** Forces the bytes to disk and renames the file into place. */
    public void commit() throws IOException {
        if (done) return;
        channel.force(true);
        channel.close();
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        done = true;
    }

    /** Without a commit, drops the {@code .partial} file: the old file stays as it was. */
    @Override
    public void close() throws IOException {
        if (done) return;
        done = true;
        channel.close();
        Files.deleteIfExists(partial);
    }
}
