package niolab.reports;

import java.util.Locale;
import niolab.reports.CollapsedProfile.Node;

/**
 * A static flame graph as SVG text, small enough to commit beside a report: frames narrower than
 * {@code minShare} of the samples are left out, a frame's colour says what kind it is (kernel,
 * the lab's own Java, the JDK, native), and each box's tooltip gives its name and share. The
 * interactive HTML one is {@code make profile}'s.
 */
public final class SvgFlameGraph {
    private static final int W = 1000, ROW = 16, TOP = 30;

    private final String title;
    private final double minShare;

    public SvgFlameGraph(String title, double minShare) {
        this.title = title;
        this.minShare = minShare;
    }

    public String render(CollapsedProfile p) {
        int depth = depth(p.root, p.samples(), 0);
        int h = TOP + depth * ROW + 10;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n",
                W, h, W, h));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">%s</text>%n", W / 2, SvgStackedBars.esc(title)));
        double x = 0;
        for (Node c : p.root.children.values()) {
            x = draw(sb, c, p.samples(), x, h - 10 - ROW);
        }
        return sb.append("</svg>\n").toString();
    }

    private int depth(Node n, long total, int d) {
        int max = d;
        for (Node c : n.children.values()) {
            if ((double) c.samples / total >= minShare) max = Math.max(max, depth(c, total, d + 1));
        }
        return max;
    }

    /** Draws n at x (in pixels) on the row whose top is y, its callees above; returns the x after it. */
    private double draw(StringBuilder sb, Node n, long total, double x, double y) {
        double w = (double) n.samples / total * W;
        if ((double) n.samples / total < minShare) return x + w;
        String name = ProfileCategories.unannotated(n.name);
        sb.append(String.format(Locale.ROOT, "<g><title>%s (%.1f%%)</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" stroke=\"white\" stroke-width=\"0.5\"/>",
                SvgStackedBars.esc(name), 100.0 * n.samples / total, x, y, w, ROW - 1, color(n.name)));
        int chars = (int) ((w - 4) / 6.5);
        if (chars >= 3) {
            String label = name.length() <= chars ? name : name.substring(0, Math.max(1, chars - 2)) + "..";
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\">%s</text>", x + 2, y + ROW - 4, SvgStackedBars.esc(label)));
        }
        sb.append("</g>\n");
        double cx = x;
        for (Node c : n.children.values()) cx = draw(sb, c, total, cx, y - ROW);
        return x + w;
    }

    private static String color(String frame) {
        if (frame.endsWith("_[k]")) return "#e8a33d";
        if (frame.startsWith("niolab/") || frame.startsWith("io/netty/")) return "#6cbf5a";
        if (frame.contains("/")) return "#5fa8d3";
        return frame.contains("::") ? "#c9c34f" : "#e2735c";
    }
}
