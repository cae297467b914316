package niolab.bench.report;

import java.util.Locale;

/** A minimal JSON writer (objects, arrays, strings, numbers): enough for reports, no dependency. */
public final class Json {
    private final StringBuilder sb = new StringBuilder();
    private boolean needComma;

    public Json begin() {
        comma();
        sb.append('{');
        needComma = false;
        return this;
    }

    public Json end() {
        sb.append('}');
        needComma = true;
        return this;
    }

    public Json beginArray(String name) {
        key(name);
        sb.append('[');
        needComma = false;
        return this;
    }

    public Json endArray() {
        sb.append(']');
        needComma = true;
        return this;
    }

    public Json object(String name) {
        key(name);
        sb.append('{');
        needComma = false;
        return this;
    }

    public Json field(String name, String value) {
        key(name);
        if (value == null) {
            sb.append("null");
        } else {
            quote(value);
        }
        needComma = true;
        return this;
    }

    public Json field(String name, long value) {
        key(name);
        sb.append(value);
        needComma = true;
        return this;
    }

    public Json field(String name, double value) {
        key(name);
        sb.append(Double.isFinite(value) ? String.format(Locale.ROOT, "%.3f", value) : "null");
        needComma = true;
        return this;
    }

    public Json field(String name, boolean value) {
        key(name);
        sb.append(value);
        needComma = true;
        return this;
    }

    private void key(String name) {
        comma();
        if (name != null) {
            quote(name);
            sb.append(':');
        }
    }

    private void comma() {
        if (needComma) sb.append(',');
    }

    private void quote(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
