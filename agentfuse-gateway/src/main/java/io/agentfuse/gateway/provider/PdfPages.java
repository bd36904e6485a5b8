package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.MediaSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The pages of a PDF, read from its structure without rendering it: the {@code /Count} of the page
 * tree's root (the catalog named by the last {@code /Root}, its {@code /Pages}); failing that, the
 * largest {@code /Count} of a {@code /Type /Pages} node; failing that, the {@code /Type /Page}
 * objects. The objects of compressed object streams ({@code /Type /ObjStm}, {@code /FlateDecode},
 * what PDF 1.5 writers such as pdfTeX and Word put the page tree in) are read too, inflated at most
 * {@value #MAX_INFLATED} bytes in all. A PDF whose pages cannot be found this way (encrypted, another
 * filter, not a PDF) counts {@value #UNKNOWN} page, the least it can have: a limit is checked against
 * what is known, and a document the gateway cannot read goes to the provider as it did before, whose
 * own answer decides, rather than every such PDF being held back from Claude.
 *
 * <p>Counting decodes the document's base64 once and reads it whole, proportional to its size: it is
 * done off the event loop before a chain is planned ({@link #countAll}), and kept on the document's
 * {@link MediaSource} ({@link MediaSource.Inline#counted}) as long as it lives, so that every Claude
 * step of a chain, the step planned again for a continuation and a resent turn whose parsed message
 * the gateway remembers find it counted. Thread-safe.
 *
 * <pre>{@code
 * int pages = PdfPages.of(MediaSource.of("data:application/pdf;base64,JVBERi0xLjcK..."));
 * }</pre>
 */
public final class PdfPages {

    /** The pages of a PDF whose pages cannot be read. */
    public static final int UNKNOWN = 1;
    /** The most bytes all object streams of one PDF are inflated to. */
    static final int MAX_INFLATED = 16 * 1024 * 1024;

    private static final Pattern OBJECT = Pattern.compile("(\\d+)\\s+\\d+\\s+obj\\b");
    private static final Pattern ROOT = Pattern.compile("/Root\\s+(\\d+)\\s+\\d+\\s+R");
    private static final Pattern PAGES_REF = Pattern.compile("/Pages\\s+(\\d+)\\s+\\d+\\s+R");
    private static final Pattern COUNT = Pattern.compile("/Count\\s+(\\d+)");
    private static final Pattern PAGES_NODE = Pattern.compile("/Type\\s*/Pages(?![A-Za-z])");
    private static final Pattern PAGE_LEAF = Pattern.compile("/Type\\s*/Page(?![A-Za-z])");
    private static final Pattern FIRST = Pattern.compile("/First\\s+(\\d+)");
    private static final Pattern OBJECT_STREAM = Pattern.compile("/Type\\s*/ObjStm(?![A-Za-z])");

    private PdfPages() {
    }

    /**
     * The pages of the PDF of {@code source}, inline {@code application/pdf}; {@value #UNKNOWN} for a
     * document by address or of another type (one page is the least any document has).
     */
    public static int of(MediaSource source) {
        return source instanceof MediaSource.Inline pdf && isPdf(pdf)
                ? pdf.counted(data -> ofBytes(decode(data.base64()))) : UNKNOWN;
    }

    /** Whether the pages of {@code source} are still to be counted: an inline PDF not counted yet. */
    public static boolean uncounted(MediaSource source) {
        return source instanceof MediaSource.Inline pdf && isPdf(pdf) && !pdf.isCounted();
    }

    /** Counts, and remembers, the pages of every PDF in {@code sources}: work to do off the event loop. */
    public static void countAll(Iterable<MediaSource> sources) {
        for (MediaSource source : sources) {
            of(source);
        }
    }

    private static boolean isPdf(MediaSource.Inline data) {
        return data.mediaType().regionMatches(true, 0, "application/pdf", 0, 15)
                && (data.mediaType().length() == 15 || data.mediaType().charAt(15) == ';');
    }

    private static byte[] decode(String base64) {
        try {
            return Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException notBase64) {
            return new byte[0];
        }
    }

    /** The pages of {@code pdf}, at least {@value #UNKNOWN}. */
    public static int ofBytes(byte[] pdf) {
        String text = new String(pdf, StandardCharsets.ISO_8859_1);
        Map<Integer, String> objects = objects(text);
        Integer root = lastNumber(ROOT, text);
        String catalog = root == null ? null : objects.get(root);
        Integer pagesRef = catalog == null ? null : lastNumber(PAGES_REF, catalog);
        String tree = pagesRef == null ? null : objects.get(pagesRef);
        Integer count = tree == null ? null : lastNumber(COUNT, tree);
        if (count != null && count > 0) {
            return count;
        }
        int largest = 0;
        int leaves = 0;
        for (String body : objects.values()) {
            if (PAGES_NODE.matcher(body).find()) {
                Integer nodeCount = lastNumber(COUNT, body);
                largest = Math.max(largest, nodeCount == null ? 0 : nodeCount);
            } else if (PAGE_LEAF.matcher(body).find()) {
                leaves++;
            }
        }
        return largest > 0 ? largest : Math.max(UNKNOWN, leaves);
    }

    /** Every object of {@code text} by number, those of its object streams included; a later definition wins. */
    private static Map<Integer, String> objects(String text) {
        Map<Integer, String> objects = new HashMap<>();
        Matcher object = OBJECT.matcher(text);
        int budget = MAX_INFLATED;
        while (object.find()) {
            int end = text.indexOf("endobj", object.end());
            String body = text.substring(object.end(), end < 0 ? text.length() : end);
            objects.put(number(object.group(1)), body);
            if (budget > 0 && OBJECT_STREAM.matcher(body).find() && body.contains("/FlateDecode")) {
                byte[] inflated = inflate(streamOf(body), budget);
                budget -= inflated.length;
                compressed(new String(inflated, StandardCharsets.ISO_8859_1), body, objects);
            }
            if (end > 0) {
                object.region(end, text.length());
            }
        }
        return objects;
    }

    /** The objects of an object stream: its header's pairs of number and offset, offsets from {@code /First}. */
    private static void compressed(String content, String dictionary, Map<Integer, String> objects) {
        Integer first = lastNumber(FIRST, dictionary);
        if (first == null || first > content.length()) {
            return;
        }
        String[] header = content.substring(0, first).trim().split("\\s+");
        for (int i = 0; i + 1 < header.length; i += 2) {
            try {
                int start = first + Integer.parseInt(header[i + 1]);
                int end = i + 3 < header.length ? first + Integer.parseInt(header[i + 3]) : content.length();
                if (start <= end && end <= content.length()) {
                    objects.putIfAbsent(number(header[i]), content.substring(start, end));
                }
            } catch (NumberFormatException notAHeader) {
                return;
            }
        }
    }

    /** The raw data of the stream in an object's {@code body}, after {@code stream} and its line end. */
    private static byte[] streamOf(String body) {
        int keyword = body.indexOf("stream");
        int end = body.lastIndexOf("endstream");
        if (keyword < 0 || end < keyword) {
            return new byte[0];
        }
        int start = keyword + 6;
        start += body.startsWith("\r\n", start) ? 2 : body.startsWith("\n", start) || body.startsWith("\r", start) ? 1 : 0;
        return body.substring(start, Math.max(start, end)).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** {@code data} inflated, at most {@code limit} bytes; what was inflated before an error. */
    private static byte[] inflate(byte[] data, int limit) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(data);
            byte[] out = new byte[Math.min(limit, Math.max(1024, data.length * 4))];
            int length = 0;
            while (!inflater.finished() && length < limit) {
                if (length == out.length) {
                    out = Arrays.copyOf(out, (int) Math.min(limit, out.length * 2L));
                }
                int read = inflater.inflate(out, length, out.length - length);
                if (read == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                length += read;
            }
            return Arrays.copyOf(out, length);
        } catch (DataFormatException broken) {
            return new byte[0];
        } finally {
            inflater.end();
        }
    }

    private static Integer lastNumber(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        Integer last = null;
        while (matcher.find()) {
            last = number(matcher.group(1));
        }
        return last;
    }

    /** The digits {@code digits} as a number, {@link Integer#MAX_VALUE} when larger. */
    private static int number(String digits) {
        return digits.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(digits);
    }
}
