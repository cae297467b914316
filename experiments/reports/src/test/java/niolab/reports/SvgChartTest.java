package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/** The charts are SVG a browser can render: well-formed XML in the SVG namespace, one line per series. */
class SvgChartTest {
    private static final String SVG_NS = "http://www.w3.org/2000/svg";

    /** Parses with the JDK's XML parser: a stray {@code <} or {@code &} fails here, as it would in a browser. */
    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
    }

    private static List<String> texts(Document d) {
        NodeList n = d.getElementsByTagNameNS(SVG_NS, "text");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n.getLength(); i++) out.add(n.item(i).getTextContent());
        return out;
    }

    @Test
    void chartIsWellFormedSvg() throws Exception {
        String svg = new SvgChart("P99 <by> connections & loops", "x", "y").logX()
                .series("a<b & c", new double[] {1, 2, 4}, new double[] {1, 5, 3})
                .series("et", new double[] {1, 2, 4}, new double[] {2, 4, 6}).render();
        Document d = parse(svg);
        Element root = d.getDocumentElement();
        assertThat(root.getLocalName()).isEqualTo("svg");
        assertThat(root.getNamespaceURI()).isEqualTo(SVG_NS);
        NodeList lines = d.getElementsByTagNameNS(SVG_NS, "polyline");
        assertThat(lines.getLength()).isEqualTo(2);
        for (int i = 0; i < lines.getLength(); i++) {
            assertThat(((Element) lines.item(i)).getAttribute("points").split(" ")).hasSize(3);
        }
        assertThat(d.getElementsByTagNameNS(SVG_NS, "circle").getLength()).isEqualTo(6);
        assertThat(texts(d)).contains("P99 <by> connections & loops", "a<b & c", "et");
    }

    @Test
    void everyCommittedChartParses() throws Exception {
        List<Path> charts;
        try (Stream<Path> files = Files.list(Paths.get("..", "charts"))) {
            charts = files.filter(p -> p.toString().endsWith(".svg")).toList();
        }
        assertThat(charts).isNotEmpty();
        for (Path c : charts) {
            assertThat(parse(Files.readString(c)).getDocumentElement().getLocalName()).as(c.toString()).isEqualTo("svg");
        }
    }
}
