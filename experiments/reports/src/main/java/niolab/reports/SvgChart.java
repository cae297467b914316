package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small line chart written as SVG text: numeric x (linear or log2) and y axes, ticks,
 * a legend, one polyline with markers per series.
 *
 * <p>Hand-written rather than a charting library on purpose: SVG is text, so a regenerated
 * report diffs cleanly and renders on any Git host, and it needs no fonts or AWT on the
 * machine that reruns the experiment.
 *
 * <pre>
 *   String svg = new SvgChart("QPS by connections", "connections", "requests/s")
 *       .logX().series("lt", xs, ys).series("et", xs, ys2).render();
 * </pre>
 */
public final class SvgChart {
    /** Distinct up to eleven series (exp-architectures draws every server); then they repeat. */
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
            "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000"};
    private static final int W = 720, H = 400, LEFT = 70, RIGHT = 150, TOP = 40, BOTTOM = 50;

    private final String title, xLabel, yLabel;
    private final List<String> names = new ArrayList<>();
    private final List<double[]> xs = new ArrayList<>();
    private final List<double[]> ys = new ArrayList<>();
    private boolean logX;

    public SvgChart(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /** Plots x on a log2 scale (for 1, 2, 4 ... 256 connections). */
    public SvgChart logX() {
        logX = true;
        return this;
    }

    public SvgChart series(String name, double[] x, double[] y) {
        if (x.length != y.length) throw new IllegalArgumentException("series " + name + ": x and y differ in length");
        names.add(name);
        xs.add(x.clone());
        ys.add(y.clone());
        return this;
    }

    public String render() {
        double x0 = Double.MAX_VALUE, x1 = -Double.MAX_VALUE, y1 = 0;
        for (int s = 0; s < names.size(); s++) {
            for (int k = 0; k < xs.get(s).length; k++) {
                x0 = Math.min(x0, tx(xs.get(s)[k]));
                x1 = Math.max(x1, tx(xs.get(s)[k]));
                y1 = Math.max(y1, ys.get(s)[k]);
            }
        }
        if (x0 > x1) { x0 = 0; x1 = 1; }
        if (x0 == x1) { x1 = x0 + 1; }
        double yStep = niceStep(y1 <= 0 ? 1 : y1 / 5);
        double yMax = Math.max(yStep, Math.ceil(y1 / yStep) * yStep);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                W, H, W, H));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        text(sb, W / 2.0, 22, "middle", 15, title);
        text(sb, LEFT + (W - LEFT - RIGHT) / 2.0, H - 10, "middle", 12, xLabel);
        sb.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">%s</text>%n",
                TOP + (H - TOP - BOTTOM) / 2.0, TOP + (H - TOP - BOTTOM) / 2.0, esc(yLabel)));
        int plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>%n", LEFT, TOP, plotW, plotH));
        for (double v = 0; v <= yMax + yStep / 2; v += yStep) {
            double py = TOP + plotH - v / yMax * plotH;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", LEFT, py, LEFT + plotW, py));
            text(sb, LEFT - 6, py + 4, "end", 11, fmt(v));
        }
        for (double t : xTicks(x0, x1)) {
            double px = LEFT + (tx(t) - x0) / (x1 - x0) * plotW;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>%n", px, TOP, px, TOP + plotH));
            text(sb, px, TOP + plotH + 16, "middle", 11, fmt(t));
        }
        for (int s = 0; s < names.size(); s++) {
            String color = COLORS[s % COLORS.length];
            StringBuilder pts = new StringBuilder();
            for (int k = 0; k < xs.get(s).length; k++) {
                double px = LEFT + (tx(xs.get(s)[k]) - x0) / (x1 - x0) * plotW;
                double py = TOP + plotH - ys.get(s)[k] / yMax * plotH;
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>%n", px, py, color));
            }
            sb.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" points=\"%s\"/>%n", color, pts.toString().trim()));
            double ly = TOP + 14 + s * 18;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>%n",
                    LEFT + plotW + 12, ly - 4, LEFT + plotW + 30, ly - 4, color));
            text(sb, LEFT + plotW + 36, ly, "start", 12, names.get(s));
        }
        return sb.append("</svg>\n").toString();
    }

    private double tx(double x) {
        return logX ? Math.log(Math.max(x, 1e-9)) / Math.log(2) : x;
    }

    private List<Double> xTicks(double x0, double x1) {
        List<Double> t = new ArrayList<>();
        if (logX) {
            for (double e = Math.floor(x0); e <= x1 + 1e-9; e++) t.add(Math.pow(2, e));
            return t;
        }
        double step = niceStep((x1 - x0) / 6);
        for (double v = Math.ceil(x0 / step) * step; v <= x1 + step / 1000; v += step) t.add(v);
        return t;
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= raw) return m * p;
        }
        return 10 * p;
    }

    private static String fmt(double v) {
        if (Math.abs(v) >= 10_000) return String.format(Locale.ROOT, "%.0fk", v / 1000);
        if (v == Math.rint(v)) return String.format(Locale.ROOT, "%.0f", v);
        return String.format(Locale.ROOT, "%.2g", v);
    }

    private static void text(StringBuilder sb, double x, double y, String anchor, int size, String s) {
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n", x, y, anchor, size, esc(s)));
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
