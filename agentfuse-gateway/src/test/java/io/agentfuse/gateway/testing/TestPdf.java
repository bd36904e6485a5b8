package io.agentfuse.gateway.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.Deflater;

/**
 * Small real PDFs of a chosen number of blank pages, built the two ways writers build them: every
 * object written out ({@link #uncompressed}, PDF 1.4 with a classic cross-reference table), or the
 * catalog, the page tree and the pages inside one {@code FlateDecode} object stream with a
 * cross-reference stream ({@link #withObjectStream}, PDF 1.5 as pdfTeX and Word write it), where no
 * {@code /Type /Page} nor {@code /Count} is to be seen without inflating it.
 */
public final class TestPdf {

    private TestPdf() {
    }

    /** A PDF of {@code pages} blank pages, every object written out. */
    public static byte[] uncompressed(int pages) {
        Writer pdf = new Writer("%PDF-1.4\n");
        pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>");
        pdf.object(2, "<< /Type /Pages /Kids [" + kids(pages) + "] /Count " + pages + " >>");
        for (int i = 0; i < pages; i++) {
            pdf.object(3 + i, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>");
        }
        int xref = pdf.length();
        StringBuilder table = new StringBuilder("xref\n0 " + (pages + 3) + "\n0000000000 65535 f \n");
        for (int offset : pdf.offsets()) {
            table.append(String.format("%010d 00000 n \n", offset));
        }
        pdf.raw(table + "trailer\n<< /Size " + (pages + 3) + " /Root 1 0 R >>\nstartxref\n" + xref + "\n%%EOF\n");
        return pdf.bytes();
    }

    /** A PDF of {@code pages} blank pages whose catalog, page tree and pages are in one compressed object stream. */
    public static byte[] withObjectStream(int pages) {
        StringBuilder header = new StringBuilder();
        StringBuilder objects = new StringBuilder();
        String[] bodies = new String[pages + 2];
        bodies[0] = "<< /Type /Catalog /Pages 2 0 R >>";
        bodies[1] = "<< /Type /Pages /Kids [" + kids(pages) + "] /Count " + pages + " >>";
        for (int i = 0; i < pages; i++) {
            bodies[2 + i] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>";
        }
        for (int i = 0; i < bodies.length; i++) {
            header.append(i + 1).append(' ').append(objects.length()).append(' ');
            objects.append(bodies[i]).append('\n');
        }
        byte[] content = (header + objects.toString()).getBytes(StandardCharsets.ISO_8859_1);
        byte[] deflated = deflate(content);
        int streamNumber = pages + 3;
        Writer pdf = new Writer("%PDF-1.5\n");
        pdf.stream(streamNumber, "<< /Type /ObjStm /N " + bodies.length + " /First " + header.length()
                + " /Filter /FlateDecode /Length " + deflated.length + " >>", deflated);
        int xref = pdf.length();
        // The cross-reference stream's entries are not read by the counter; its dictionary names the root.
        byte[] entries = deflate(new byte[(pages + 5) * 4]);
        pdf.stream(streamNumber + 1, "<< /Type /XRef /Size " + (pages + 5) + " /W [1 2 1] /Root 1 0 R"
                + " /Filter /FlateDecode /Length " + entries.length + " >>", entries);
        pdf.raw("startxref\n" + xref + "\n%%EOF\n");
        return pdf.bytes();
    }

    /** {@code pdf} as the data URL a caller sends. */
    public static String dataUrl(byte[] pdf) {
        return "data:application/pdf;base64," + base64(pdf);
    }

    /** {@code pdf} in base64. */
    public static String base64(byte[] pdf) {
        return Base64.getEncoder().encodeToString(pdf);
    }

    private static String kids(int pages) {
        StringBuilder kids = new StringBuilder();
        for (int i = 0; i < pages; i++) {
            kids.append(i == 0 ? "" : " ").append(3 + i).append(" 0 R");
        }
        return kids.toString();
    }

    private static byte[] deflate(byte[] data) {
        Deflater deflater = new Deflater();
        deflater.setInput(data);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        while (!deflater.finished()) {
            out.write(chunk, 0, deflater.deflate(chunk));
        }
        deflater.end();
        return out.toByteArray();
    }

    /** The bytes of a PDF under way, with the offset of each object written. */
    private static final class Writer {

        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final java.util.List<Integer> offsets = new java.util.ArrayList<>();

        Writer(String header) {
            raw(header);
        }

        void object(int number, String body) {
            offsets.add(out.size());
            raw(number + " 0 obj\n" + body + "\nendobj\n");
        }

        void stream(int number, String dictionary, byte[] data) {
            offsets.add(out.size());
            raw(number + " 0 obj\n" + dictionary + "\nstream\n");
            out.writeBytes(data);
            raw("\nendstream\nendobj\n");
        }

        void raw(String text) {
            out.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
        }

        int length() {
            return out.size();
        }

        java.util.List<Integer> offsets() {
            return offsets;
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
