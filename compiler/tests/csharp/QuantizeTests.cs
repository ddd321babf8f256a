// PktQuantize: the rounding of docs/wire-format.md at its edges, with the
// same values and results as the Rust runtime's tests (pkt_runtime::quantize).
using System;
using Pkt;

namespace PktTests
{
    public static class QuantizeTests
    {
        private static readonly PktQuantize Pos = new PktQuantize(-4096.0, 4096.0, 0.01, 819200);
        private static readonly PktQuantize Unit = new PktQuantize(0.0, 1.0, 0.5, 2);

        /// <summary>The next double away from zero.</summary>
        private static double Outward(double v) { return BitConverter.Int64BitsToDouble(BitConverter.DoubleToInt64Bits(v) + 1); }
        /// <summary>The next double toward zero (v not 0).</summary>
        private static double Inward(double v) { return BitConverter.Int64BitsToDouble(BitConverter.DoubleToInt64Bits(v) - 1); }

        private static ulong Q(PktQuantize q, double v)
        {
            ulong n;
            Check.True(q.TryQuantize(v, out n), v + " is in range");
            return n;
        }

        private static byte[] Encode(PktQuantize q, double v)
        {
            var buf = new byte[q.Width];
            var w = new PktWriter(buf);
            q.Write(ref w, v, "T.x");
            Check.Equal(q.Width, w.Position, "bytes written");
            return buf;
        }

        private static double Decode(PktQuantize q, byte[] bytes)
        {
            var r = new PktReader(bytes, null);
            return q.ReadF64(ref r);
        }

        public static void Widths()
        {
            Check.Equal(1, PktQuantize.StoredWidth(1), "1");
            Check.Equal(1, PktQuantize.StoredWidth(255), "255");
            Check.Equal(2, PktQuantize.StoredWidth(256), "256");
            Check.Equal(2, PktQuantize.StoredWidth(65535), "65535");
            Check.Equal(4, PktQuantize.StoredWidth(65536), "65536");
            Check.Equal(4, PktQuantize.StoredWidth(uint.MaxValue), "u32 max");
            Check.Equal(8, PktQuantize.StoredWidth((ulong)uint.MaxValue + 1), "u32 max + 1");
            Check.Equal(4, Pos.Width, "Pos");
        }

        public static void Edges()
        {
            Check.Equal(0UL, Q(Pos, -4096.0), "min");
            Check.Equal(819200UL, Q(Pos, 4096.0), "max");
            Check.Bytes(new byte[] { 0x00, 0x80, 0x0c, 0x00 }, Encode(Pos, 4096.0), "max bytes");
            Check.Equal(4096.0, Decode(Pos, new byte[] { 0x00, 0x80, 0x0c, 0x00 }), "max decoded");
            Check.Equal(-4096.0, Decode(Pos, new byte[4]), "min decoded");
            // docs/wire-format.md: a tie, away from zero.
            Check.Equal(410834.5, (12.345 + 4096.0) / 0.01, "the quotient is a tie");
            Check.Bytes(new byte[] { 0xd3, 0x44, 0x06, 0x00 }, Encode(Pos, 12.345), "12.345");
            Check.Equal(12.350000000000364, Decode(Pos, new byte[] { 0xd3, 0x44, 0x06, 0x00 }), "12.35");
        }

        public static void Ties()
        {
            Check.Equal(1UL, Q(Unit, 0.25), "0.25");
            Check.Equal(2UL, Q(Unit, 0.75), "0.75");
            Check.Equal(0UL, Q(Unit, Inward(0.25)), "just under a tie");
            Check.Equal(1UL, Q(new PktQuantize(-1.0, 1.0, 0.5, 4), -0.75), "-0.75");
        }

        public static void Refused()
        {
            foreach (double v in new[] { Outward(4096.0), Outward(-4096.0), double.NaN, -double.NaN, double.PositiveInfinity, double.NegativeInfinity, double.MaxValue, 4096.001 })
            {
                ulong q;
                Check.True(!Pos.TryQuantize(v, out q), v + " is refused");
                try
                {
                    Encode(Pos, v);
                    throw new AssertionException(v + " encoded");
                }
                catch (PktEncodeException e)
                {
                    Check.Equal("field `T.x` is outside its quantized range", e.Message, "message");
                }
            }
        }

        public static void NegativeZero()
        {
            Check.Equal(0UL, Q(Unit, -0.0), "-0.0");
            Check.Bytes(new byte[] { 0 }, Encode(Unit, -0.0), "-0.0 bytes");
            Check.Equal(0L, BitConverter.DoubleToInt64Bits(Decode(Unit, new byte[] { 0 })), "decodes to +0.0");
        }

        public static void PastSteps()
        {
            var e = Check.Fails(PktDecodeReason.InvalidQuantized, () =>
            {
                var r = new PktReader(new byte[] { 9, 9, 3 }, null);
                r.ReadU16();
                Unit.ReadF32(ref r);
            }, "3 of 2 steps");
            Check.Equal(2L, e.Offset, "offset");
            Check.Equal(0L, Check.Fails(PktDecodeReason.InvalidQuantized, () => Decode(Pos, BitConverter.GetBytes(819201u)), "819,201").Offset, "offset");
            Check.Fails(PktDecodeReason.UnexpectedEnd, () => Decode(Pos, new byte[3]), "short");
            Check.Fails(PktDecodeReason.InvalidQuantized, () => Pos.Value(819201, 7), "Value");
        }

        public static void LargestSteps()
        {
            var q = new PktQuantize(0.0, 9007199254740992.0, 1.0, 1UL << 53);
            Check.Equal(8, q.Width, "width");
            foreach (ulong n in new[] { 0UL, 1UL, (1UL << 53) - 1, 1UL << 53 })
                Check.Equal(n, Q(q, q.Dequantize(n)), "steps " + n);
            Check.Bytes(BitConverter.GetBytes(1UL << 53), Encode(q, 9007199254740992.0), "2^53");
            Check.Fails(PktDecodeReason.InvalidQuantized, () => Decode(q, BitConverter.GetBytes((1UL << 53) + 1)), "2^53 + 1");
        }

        public static void DecodeThenEncode()
        {
            for (ulong n = 0; n <= Pos.Steps; n += 97)
            {
                Check.Equal(n, Q(Pos, Pos.Dequantize(n)), "f64 " + n);
                Check.Equal(n, Q(Pos, (float)Pos.Dequantize(n)), "f32 " + n);
            }
        }
    }
}
