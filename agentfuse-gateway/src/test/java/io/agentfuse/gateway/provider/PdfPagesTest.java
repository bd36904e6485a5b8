package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.MediaSource;
import io.agentfuse.gateway.testing.TestPdf;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PdfPagesTest {

    @Test
    void readsThePageTreeRootOfAPdfWrittenOut() {
        assertThat(PdfPages.ofBytes(TestPdf.uncompressed(1))).isEqualTo(1);
        assertThat(PdfPages.ofBytes(TestPdf.uncompressed(101))).isEqualTo(101);
    }

    @Test
    void readsThePageTreeHiddenInACompressedObjectStream() {
        byte[] pdf = TestPdf.withObjectStream(101);

        // Given nothing of the tree to be seen in the file's bytes
        assertThat(new String(pdf, StandardCharsets.ISO_8859_1)).doesNotContain("/Count").doesNotContain("/Type /Page ");

        assertThat(PdfPages.ofBytes(pdf)).isEqualTo(101);
    }

    @Test
    void theRootOfTheLastUpdateDecides() {
        // An incremental update appends a new catalog and page tree; the last /Root names them.
        String original = new String(TestPdf.uncompressed(3), StandardCharsets.ISO_8859_1);
        String update = "10 0 obj\n<< /Type /Catalog /Pages 11 0 R >>\nendobj\n"
                + "11 0 obj\n<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>\nendobj\n"
                + "trailer\n<< /Size 12 /Root 10 0 R >>\n%%EOF\n";

        assertThat(PdfPages.ofBytes((original + update).getBytes(StandardCharsets.ISO_8859_1))).isEqualTo(2);
    }

    @Test
    void withoutARootTheLargestPageTreeNodeCounts() {
        String pdf = "%PDF-1.4\n1 0 obj\n<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 40 >>\nendobj\n"
                + "2 0 obj\n<< /Type /Pages /Parent 1 0 R /Count 25 >>\nendobj\n"
                + "3 0 obj\n<< /Type /Pages /Parent 1 0 R /Count 15 >>\nendobj\n%%EOF\n";

        assertThat(PdfPages.ofBytes(pdf.getBytes(StandardCharsets.ISO_8859_1))).isEqualTo(40);
    }

    @Test
    void withoutAPageTreeThePageObjectsCount() {
        String pdf = "%PDF-1.4\n1 0 obj\n<< /Type /Page >>\nendobj\n2 0 obj\n<< /Type/Page >>\nendobj\n"
                + "3 0 obj\n<< /Type /Pages >>\nendobj\n%%EOF\n";

        assertThat(PdfPages.ofBytes(pdf.getBytes(StandardCharsets.ISO_8859_1))).isEqualTo(2);
    }

    @Test
    void aPdfWhosePagesCannotBeReadCountsOnePage() {
        assertThat(PdfPages.ofBytes("not a pdf".getBytes(StandardCharsets.ISO_8859_1))).isEqualTo(PdfPages.UNKNOWN);
        // An object stream that does not inflate (encrypted, say) hides its pages.
        String unreadable = "%PDF-1.5\n5 0 obj\n<< /Type /ObjStm /N 3 /First 12 /Filter /FlateDecode >>\nstream\n"
                + "\u00ff\u00fe garbage\nendstream\nendobj\n%%EOF\n";
        assertThat(PdfPages.ofBytes(unreadable.getBytes(StandardCharsets.ISO_8859_1))).isEqualTo(PdfPages.UNKNOWN);
    }

    @Test
    void aDocumentByAddressOrOfAnotherTypeCountsOnePage() {
        assertThat(PdfPages.of(MediaSource.of("https://example.com/report.pdf"))).isEqualTo(1);
        assertThat(PdfPages.of(MediaSource.of("data:text/plain;base64,aGVsbG8="))).isEqualTo(1);
        assertThat(PdfPages.uncounted(MediaSource.of("https://example.com/report.pdf"))).isFalse();
    }

    @Test
    void anInlinePdfIsCountedOnceAndRemembered() {
        MediaSource pdf = MediaSource.of(TestPdf.dataUrl(TestPdf.withObjectStream(7)));
        assertThat(PdfPages.uncounted(pdf)).isTrue();

        PdfPages.countAll(List.of(pdf));

        assertThat(PdfPages.uncounted(pdf)).isFalse();
        assertThat(PdfPages.of(pdf)).isEqualTo(7);
        assertThat(PdfPages.uncounted(MediaSource.of(TestPdf.dataUrl(TestPdf.withObjectStream(7)))))
                .as("remembered by its source, not by what it says").isTrue();
    }
}
