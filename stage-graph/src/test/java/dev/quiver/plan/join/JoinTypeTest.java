package dev.quiver.plan.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class JoinTypeTest {
  private static final Field PROBE_KEY =
      new Field("p", FieldType.notNullable(new ArrowType.Int(64, true)), null);
  private static final Field BUILD_KEY =
      new Field("b", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null);
  private static final Schema PROBE = new Schema(List.of(PROBE_KEY));
  private static final Schema BUILD = new Schema(List.of(BUILD_KEY));

  @Test
  void outputSchemasPutLeftProbeColumnsFirstAndNullPaddedSidesBecomeNullable() {
    assertThat(names(JoinType.INNER)).containsExactly("p:false", "b:false");
    assertThat(names(JoinType.LEFT)).containsExactly("p:false", "b:true");
    assertThat(names(JoinType.RIGHT)).containsExactly("p:true", "b:false");
    assertThat(names(JoinType.FULL)).containsExactly("p:true", "b:true");
    assertThat(names(JoinType.LEFT_SEMI)).containsExactly("p:false");
    assertThat(names(JoinType.LEFT_ANTI)).containsExactly("p:false");
    assertThat(names(JoinType.RIGHT_SEMI)).containsExactly("b:false");
    assertThat(names(JoinType.RIGHT_ANTI)).containsExactly("b:false");
    assertThat(names(JoinType.LEFT_MARK)).containsExactly("p:false", "mark:true");
    assertThat(JoinType.LEFT_MARK.outputSchema(PROBE, BUILD).getFields().get(1).getType())
        .isEqualTo(ArrowType.Bool.INSTANCE);
  }

  @ParameterizedTest
  @EnumSource(value = JoinType.class, names = "LEFT_MARK", mode = EnumSource.Mode.EXCLUDE)
  void swapIsAnInvolutionThatMirrorsTheSides(JoinType type) {
    assertThat(type.swap().swap()).isEqualTo(type);
    assertThat(type.swap().emitsLeft()).isEqualTo(type.emitsRight());
    assertThat(type.swap().padsLeft()).isEqualTo(type.padsRight());
  }

  @Test
  void markJoinHasNoMirror() {
    assertThatThrownBy(JoinType.LEFT_MARK::swap).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void onlyLeftAntiAndLeftMarkCanBeNullAware() {
    assertThat(JoinKind.nullAware(JoinType.LEFT_ANTI)).hasToString("LEFT_ANTI(null-aware)");
    assertThat(JoinKind.nullAware(JoinType.LEFT_MARK).nullAware()).isTrue();
    assertThat(JoinKind.of(JoinType.LEFT_ANTI)).hasToString("LEFT_ANTI");
    assertThatThrownBy(() -> JoinKind.nullAware(JoinType.RIGHT_ANTI))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("RIGHT_ANTI");
  }

  @Test
  void joinKindIsSerializable() throws Exception {
    JoinKind kind = JoinKind.nullAware(JoinType.LEFT_MARK);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(kind);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(in.readObject()).isEqualTo(kind);
    }
  }

  private static List<String> names(JoinType type) {
    return type.outputSchema(PROBE, BUILD).getFields().stream()
        .map(f -> f.getName() + ":" + f.isNullable())
        .toList();
  }
}
