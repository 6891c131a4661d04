package dev.klave.simulator;

import dev.klave.proxy.SpdyDictionary;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * SPDY/3 name/value header blocks (§2.6.10), zlib-compressed with the protocol's fixed dictionary.
 * Each direction of a connection is one zlib stream that lives as long as the connection, flushed
 * (SYNC_FLUSH) after every block, so one instance compresses or decompresses one direction.
 */
final class SpdyHeaderBlock {
    /** The SPDY/3 dictionary (§2.6.10.1): length-prefixed common header words, then common values. */
    static final byte[] DICTIONARY = SpdyDictionary.bytes();

    private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION);
    private final Inflater inflater = new Inflater();

    SpdyHeaderBlock() {
        deflater.setDictionary(DICTIONARY);
    }

    byte[] compress(Map<String, List<String>> headers) {
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(plain)) {
            out.writeInt(headers.size());
            for (Map.Entry<String, List<String>> header : headers.entrySet()) {
                byte[] name = header.getKey().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
                byte[] value = String.join("\0", header.getValue()).getBytes(StandardCharsets.UTF_8);
                out.writeInt(name.length);
                out.write(name);
                out.writeInt(value.length);
                out.write(value);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        deflater.setInput(plain.toByteArray());
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        byte[] buffer = new byte[1024];
        int count;
        do {
            count = deflater.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH);
            compressed.write(buffer, 0, count);
        } while (count == buffer.length);
        return compressed.toByteArray();
    }

    Map<String, List<String>> decompress(byte[] block) throws IOException {
        inflater.setInput(block);
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        byte[] buffer = new byte[1024];
        try {
            while (true) {
                int count = inflater.inflate(buffer);
                if (count == 0 && inflater.needsDictionary()) {
                    inflater.setDictionary(DICTIONARY);
                    continue;
                }
                plain.write(buffer, 0, count);
                if (count == 0 && inflater.needsInput()) {
                    break;
                }
            }
        } catch (DataFormatException e) {
            throw new IOException("corrupt SPDY header block", e);
        }
        return parse(plain.toByteArray());
    }

    private static Map<String, List<String>> parse(byte[] plain) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(plain));
        int pairs = in.readInt();
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 0; i < pairs; i++) {
            String name = new String(in.readNBytes(in.readInt()), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
            String value = new String(in.readNBytes(in.readInt()), StandardCharsets.UTF_8);
            headers.computeIfAbsent(name, key -> new ArrayList<>()).addAll(Arrays.asList(value.split("\0", -1)));
        }
        return headers;
    }
}
