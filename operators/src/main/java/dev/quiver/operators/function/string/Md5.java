package dev.quiver.operators.function.string;

import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.expr.Utf8Writer;
import dev.quiver.operators.function.Kernels;
import dev.quiver.operators.function.StringResultEval;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * {@code md5(s)}: the MD5 digest of the UTF-8 bytes of {@code s} as 32 lower-case hex digits (a
 * VARCHAR, as in DuckDB). One {@link MessageDigest} per batch; each value is copied into a reused
 * array for it (MessageDigest reads arrays or ByteBuffers, not Arrow buffers).
 */
final class Md5 extends StringFunction {
  private static final byte[] HEX =
      "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  Md5() {
    super("md5", List.of(), 1, 1, "md5(string)");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    return Kernels.fromStrings(args, SqlType.VARCHAR);
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    return new StringResultEval(call, args) {
      @Override
      protected void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows) {
        Col s = values[0];
        MessageDigest md5 = newDigest();
        byte[] input = new byte[256];
        byte[] digest = new byte[16];
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          int start = s.start(i);
          int length = s.end(i) - start;
          if (length > input.length) {
            input = new byte[Math.max(length, input.length * 2)];
          }
          s.data.getBytes(start, input, 0, length);
          md5.update(input, 0, length);
          try {
            md5.digest(digest, 0, 16);
          } catch (DigestException e) {
            throw new IllegalStateException(e);
          }
          writer.begin(i);
          for (byte b : digest) {
            writer.appendByte(HEX[(b >> 4) & 0xF]);
            writer.appendByte(HEX[b & 0xF]);
          }
          writer.commit(i);
        }
      }
    };
  }

  private static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has MD5", e);
    }
  }
}
