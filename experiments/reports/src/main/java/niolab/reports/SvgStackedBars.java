package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A horizontal stacked bar chart as SVG text, {@link SvgChart}'s twin for shares: a bar per
 * row (a server), a segment per part (a category), each bar summing to 100%.
 *
 * <pre>
 *   String svg = new SvgStackedBars("keep-alive /ping: where the CPU goes", List.of("parser", "kernel"))
 *       .bar("lt", new double[] {0.2, 0.8}).bar("vt", new double[] {0.1, 0.9}).render();
 * </pre>
 */
public final class SvgStackedBars {
    private static final String[] COLORS = {"#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a", "#d62728",
            "#ff9896", "#9467bd", "#c5b0d5", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    private static final int W = 760, LEFT = 110, RIGHT = 230, TOP = 40, BAR = 22, GAP = 8, BOTTOM = 36;

    private final String title;
    private final List<String> parts;
    private final List<String> rows = new ArrayList<>();
    private final List<double[]> shares = new ArrayList<>();

    public SvgStackedBars(String title, List<String> parts) {
        this.title = title;
        this.parts = List.copyOf(parts);
    }

    /** A bar: the shares of each part, in the parts' order (fractions; normalised to their sum). */
    public SvgStackedBars bar(String row, double[] share) {
        if (share.length != parts.size()) throw new IllegalArgumentException("bar " + row + ": " + share.length + " shares for " + parts.size() + " parts");
        rows.add(row);
        shares.add(share.clone());
        return this;
    }

    public String render() {
        int plotW = W - LEFT - RIGHT;
        int h = Math.max(TOP + rows.size() * (BAR + GAP) + BOTTOM, TOP + parts.size() * 16 + BOTTOM);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                W, h, W, h));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        text(sb, W / 2.0, 22, "middle", 15, title);
        for (int r = 0; r < rows.size(); r++) {
            double y = TOP + r * (BAR + GAP), sum = 0, x = LEFT;
            for (double s : shares.get(r)) sum += s;
            text(sb, LEFT - 6, y + BAR / 2.0 + 4, "end", 12, rows.get(r));
            for (int p = 0; p < parts.size(); p++) {
                double w = sum <= 0 ? 0 : shares.get(r)[p] / sum * plotW;
                if (w <= 0) continue;
                sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s %s: %.1f%%</title></rect>%n",
                        x, y, w, BAR, COLORS[p % COLORS.length], esc(rows.get(r)), esc(parts.get(p)), 100 * shares.get(r)[p] / sum));
                x += w;
            }
        }
        double axisY = TOP + rows.size() * (BAR + GAP);
        for (int t = 0; t <= 100; t += 25) {
            double px = LEFT + t / 100.0 * plotW;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\"/>%n", px, TOP, px, axisY));
            text(sb, px, axisY + 14, "middle", 11, t + "%");
        }
        for (int p = 0; p < parts.size(); p++) {
            double ly = TOP + 10 + p * 16;
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>%n", LEFT + plotW + 12, ly - 10, COLORS[p % COLORS.length]));
            text(sb, LEFT + plotW + 30, ly, "start", 11, parts.get(p));
        }
        return sb.append("</svg>\n").toString();
    }

    private static void text(StringBuilder sb, double x, double y, String anchor, int size, String s) {
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n", x, y, anchor, size, esc(s)));
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
