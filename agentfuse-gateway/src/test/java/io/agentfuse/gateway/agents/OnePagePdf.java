package io.agentfuse.gateway.agents;

/** A valid PDF of one page saying "Hello", small enough to read: for the agents that read PDFs. */
final class OnePagePdf {

    private static final String CONTENT = "BT /F1 24 Tf 20 40 Td (Hello) Tj ET";

    private static final String[] OBJECTS = {
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        "<< /Length " + OnePagePdf.CONTENT.length() + " >>\nstream\n" + OnePagePdf.CONTENT + "\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    };

    /** The PDF's bytes as ISO-8859-1 text, its cross-reference table pointing at each object. */
    static final String TEXT = build();

    private OnePagePdf() {
    }

    private static String build() {
        StringBuilder pdf = new StringBuilder("%PDF-1.4\n");
        int[] offsets = new int[OBJECTS.length];
        for (int i = 0; i < OBJECTS.length; i++) {
            offsets[i] = pdf.length();
            pdf.append(i + 1).append(" 0 obj\n").append(OBJECTS[i]).append("\nendobj\n");
        }
        int xref = pdf.length();
        pdf.append("xref\n0 ").append(OBJECTS.length + 1).append("\n0000000000 65535 f \n");
        for (int offset : offsets) {
            pdf.append(String.format("%010d 00000 n \n", offset));
        }
        return pdf.append("trailer\n<< /Size ").append(OBJECTS.length + 1).append(" /Root 1 0 R >>\nstartxref\n")
                .append(xref).append("\n%%EOF\n").toString();
    }
}
