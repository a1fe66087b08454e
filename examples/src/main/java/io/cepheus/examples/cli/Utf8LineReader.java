package io.cepheus.examples.cli;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Lines of UTF-8 text, decoded one line at a time, so that a line with bytes that are not UTF-8 is a bad line of
 * its own ({@link NotUtf8Exception}, naming nothing but that line) and the lines around it read normally. A
 * reader that decodes the stream ahead of the lines would fail on a chunk instead, for a line it has not
 * reached, and lose the lines it had decoded. Lines end at {@code \n}, a {@code \r} before it is dropped.
 *
 * <p>Only {@link #readLine()} and {@link #close()} are meant to be used. Owned by the thread that reads it.
 */
final class Utf8LineReader extends BufferedReader {

    /** The line's bytes are not UTF-8; the line has been consumed, the next call reads the line after it. */
    static final class NotUtf8Exception extends IOException {
        private static final long serialVersionUID = 1L;

        NotUtf8Exception(String message) {
            super(message);
        }
    }

    private final InputStream in;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);

    /** @param in the bytes, read through this reader's own buffer of lines (pass a buffered stream) */
    Utf8LineReader(InputStream in) {
        super(Reader.nullReader());
        this.in = in;
    }

    @Override
    public String readLine() throws IOException {
        bytes.reset();
        int b = in.read();
        if (b < 0) {
            return null;
        }
        while (b >= 0 && b != '\n') {
            bytes.write(b);
            b = in.read();
        }
        byte[] line = bytes.toByteArray();
        int length = line.length > 0 && line[line.length - 1] == '\r' ? line.length - 1 : line.length;
        try {
            return decoder.reset().decode(ByteBuffer.wrap(line, 0, length)).toString();
        } catch (CharacterCodingException e) {
            throw new NotUtf8Exception("not valid UTF-8 (" + describe(line, length) + ")");
        }
    }

    /** @return where the first byte that is not UTF-8 is, for the message */
    private String describe(byte[] line, int length) {
        ByteBuffer buffer = ByteBuffer.wrap(line, 0, length);
        CharsetDecoder probe = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        CharBuffer out = CharBuffer.allocate(length + 1);
        probe.decode(buffer, out, true);
        int at = buffer.position();
        return "byte " + (at + 1) + " of the line is 0x" + String.format(Locale.ROOT, "%02x", line[at] & 0xff);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
