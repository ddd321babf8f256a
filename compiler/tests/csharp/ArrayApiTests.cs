// The byte[] + offset entry points (Encode(byte[], int), Decode(byte[], int),
// DecodeInto(byte[], int) and the messages' Decode(byte[], int, int)), and
// every store and load body of a fixed-size struct (span, array or pointer):
// the same bytes and the same errors at the same offsets as the span API,
// and nothing written or read outside the range. The suite runs against the
// default output and against `gen --unsafe`.
using System;
using Pkt;
using Test.Everything;

namespace PktTests
{
    public static class ArrayApiTests
    {
        private static Fixed SampleFixed()
        {
            return new Fixed
            {
                Flag = true,
                Small = 200,
                Color = Color.Blue,
                Wide = Wide.High,
                Big = Big.Huge,
                Point = new Point { X = -5, Y = int.MaxValue },
                Grid = new byte[] { 1, 2, 3, 4 },
                Points = new[] { new Point { X = 1, Y = 2 }, new Point { X = -3, Y = -4 } },
                Nested = new[] { new short[] { -1, 2 }, new short[] { short.MinValue, short.MaxValue } },
                SignedByte = -128,
                Ratio = -1.5f,
                Precise = Math.PI,
            };
        }

        private static Seeds.Packets.TransformPacket SampleTransform()
        {
            return new Seeds.Packets.TransformPacket
            {
                Size = 40, Id = 3456,
                PosX = 1.1f, PosY = 2.2f, PosZ = 3.3f,
                RotX = 123.456f, RotY = 234.567f, RotZ = 345.678f,
                ScaleX = float.NaN, ScaleY = float.NegativeInfinity, ScaleZ = -0f,
            };
        }

        /// <summary>Encode(byte[], int) writes exactly the span encoding at the offset and nothing else.</summary>
        public static void EncodeAtOffset()
        {
            var f = SampleFixed();
            var expected = new byte[Fixed.EncodedSize];
            Check.Equal(Fixed.EncodedSize, f.Encode(new Span<byte>(expected)), "Encode(Span) size");
            // The span body on its own (the pointer body backs Encode(Span) in the unsafe output).
            var viaSpanBody = new byte[Fixed.EncodedSize + 3];
            f.WriteTo(new Span<byte>(viaSpanBody), 3);
            Check.Bytes(expected, new ReadOnlySpan<byte>(viaSpanBody, 3, Fixed.EncodedSize), "WriteTo(Span, 3)");
            foreach (int offset in new[] { 0, 1, 7, 100 })
            {
                var buffer = new byte[offset + Fixed.EncodedSize + 5];
                for (int i = 0; i < buffer.Length; i++) buffer[i] = 0xEE;
                Check.Equal(Fixed.EncodedSize, f.Encode(buffer, offset), "returns the size");
                Check.Bytes(expected, new ReadOnlySpan<byte>(buffer, offset, Fixed.EncodedSize), "bytes at " + offset);
                for (int i = 0; i < buffer.Length; i++)
                {
                    if (i < offset || i >= offset + Fixed.EncodedSize) Check.Equal((byte)0xEE, buffer[i], "byte " + i + " untouched");
                }
            }
            Check.Bytes(expected, f.ToArray(), "ToArray");
            // A null array field encodes as its default elements through every body.
            var empty = new Fixed();
            var viaSpan = new byte[Fixed.EncodedSize];
            empty.Encode(new Span<byte>(viaSpan));
            Check.Bytes(viaSpan, empty.ToArray(), "null arrays, array or pointer body");
            // The seed packet, exactly at the end of the buffer.
            var t = SampleTransform();
            var tail = new byte[64];
            t.Encode(tail, 64 - 40);
            Check.Bytes(t.ToArray(), new ReadOnlySpan<byte>(tail, 24, 40), "TransformPacket at the end");
            // A struct of no bytes fits at the very end.
            var buf = new byte[3];
            Check.Equal(0, new Empty().Encode(buf, 3), "Empty at the end");
        }

        public static void EncodeRangeErrors()
        {
            var t = SampleTransform();
            Throws<ArgumentNullException>(() => t.Encode(null, 0), "null buffer");
            Throws<ArgumentOutOfRangeException>(() => t.Encode(new byte[64], -1), "negative offset");
            Throws<ArgumentOutOfRangeException>(() => t.Encode(new byte[64], 65), "offset past the end");
            Throws<ArgumentOutOfRangeException>(() => t.Encode(new byte[64], int.MinValue), "int.MinValue offset");
            var buffer = new byte[64];
            Throws<PktEncodeException>(() => t.Encode(buffer, 25), "39 bytes left");
            Throws<PktEncodeException>(() => t.Encode(buffer, 64), "none left");
            Throws<PktEncodeException>(() => t.Encode(new Span<byte>(buffer, 0, 39)), "39-byte span");
            foreach (var b in buffer) Check.Equal((byte)0, b, "nothing written on failure");
            Throws<ArgumentOutOfRangeException>(() => new Empty().Encode(new byte[3], 4), "Empty past the end");
            var small = new Seeds.Small.Small { Id = 1, Name = "hello" };
            Throws<PktEncodeException>(() => small.Encode(new byte[20], 4), "message: 16 bytes left of 17");
            Throws<ArgumentOutOfRangeException>(() => small.Encode(new byte[20], 21), "message: offset past the end");
            Throws<ArgumentNullException>(() => small.Encode(null, 0), "message: null buffer");
        }

        /// <summary>Decode(byte[], int) and DecodeInto read the EncodedSize bytes at the offset and ignore what follows.</summary>
        public static void DecodeAtOffset()
        {
            var f = SampleFixed();
            var bytes = f.ToArray();
            var buffer = new byte[11 + bytes.Length + 9];
            for (int i = 0; i < buffer.Length; i++) buffer[i] = 0x77;
            Array.Copy(bytes, 0, buffer, 11, bytes.Length);
            Check.Bytes(bytes, Fixed.Decode(buffer, 11).ToArray(), "Decode(byte[], 11)");
            var into = new Fixed();
            into.DecodeInto(buffer, 11);
            Check.Bytes(bytes, into.ToArray(), "DecodeInto(byte[], 11)");
            var fromSpan = new Fixed();
            fromSpan.DecodeInto(new ReadOnlySpan<byte>(bytes));
            Check.Bytes(bytes, fromSpan.ToArray(), "DecodeInto(span)");
            // The span body on its own (the pointer body backs the others in the unsafe output).
            var viaSpanBody = new Fixed();
            viaSpanBody.ReadInto(new ReadOnlySpan<byte>(buffer), 11, 0);
            Check.Bytes(bytes, viaSpanBody.ToArray(), "ReadInto(span, 11)");
            var t = SampleTransform();
            var tb = t.ToArray();
            var tail = new byte[24 + 40];
            Array.Copy(tb, 0, tail, 24, 40);
            Check.Bytes(tb, Seeds.Packets.TransformPacket.Decode(tail, 24).ToArray(), "TransformPacket at the end (NaN, -inf, -0 bits)");
            Check.Equal(0, Empty.Decode(new byte[2], 2).GetEncodedSize(), "Empty at the end");

            Throws<ArgumentNullException>(() => Fixed.Decode(null, 0), "null source");
            Throws<ArgumentOutOfRangeException>(() => Fixed.Decode(buffer, -1), "negative offset");
            Throws<ArgumentOutOfRangeException>(() => Fixed.Decode(buffer, buffer.Length + 1), "offset past the end");

            var s = new Seeds.Small.Small { Id = 7, Name = "hi" };
            var sb = s.ToArray();
            var framed = new byte[sb.Length + 6];
            Array.Copy(sb, 0, framed, 4, sb.Length);
            var back = Seeds.Small.Small.Decode(framed, 4, sb.Length);
            Check.Equal("hi", back.Name, "message Decode(byte[], 4, n)");
            var e = Check.Fails(PktDecodeReason.TrailingBytes, () => Seeds.Small.Small.Decode(framed, 4, sb.Length + 1), "one more byte");
            Check.Equal((long)sb.Length, e.Offset, "offset from the start of the range");
        }

        /// <summary>
        /// Every cut and every single-byte change of a struct with bools, enums,
        /// nested structs and arrays: the array entry points give the error of
        /// Decode(span) over the same bytes, reason and offset, or the same value.
        /// </summary>
        public static void DecodeErrorsAgree()
        {
            var bytes = SampleFixed().ToArray();
            for (int cut = 0; cut < bytes.Length; cut++)
            {
                var prefix = new byte[cut];
                Array.Copy(bytes, prefix, cut);
                var expected = Error(() => Fixed.Decode(new ReadOnlySpan<byte>(prefix)));
                Check.True(expected != null && expected.Reason == PktDecodeReason.UnexpectedEnd, "cut at " + cut);
                var padded = new byte[5 + cut];
                Array.Copy(prefix, 0, padded, 5, cut);
                Agree(expected, Error(() => Fixed.Decode(padded, 5)), "Decode(byte[], 5) cut at " + cut);
                Agree(expected, Error(() => new Fixed().DecodeInto(padded, 5)), "DecodeInto(byte[], 5) cut at " + cut);
                Agree(expected, Error(() => new Fixed().DecodeInto(new ReadOnlySpan<byte>(prefix))), "DecodeInto(span) cut at " + cut);
            }
            for (int at = 0; at < bytes.Length; at++)
            {
                foreach (byte value in new byte[] { 2, 0xFF })
                {
                    var changed = (byte[])bytes.Clone();
                    changed[at] = value;
                    var expected = Error(() => Fixed.Decode(new ReadOnlySpan<byte>(changed)));
                    var padded = new byte[3 + changed.Length + 2];
                    Array.Copy(changed, 0, padded, 3, changed.Length);
                    Agree(expected, Error(() => Fixed.Decode(padded, 3)), "Decode(byte[], 3), byte " + at + " = " + value);
                    Agree(expected, Error(() => new Fixed().DecodeInto(new ReadOnlySpan<byte>(changed))), "DecodeInto(span), byte " + at + " = " + value);
                    if (expected == null)
                    {
                        Check.Bytes(changed, Fixed.Decode(padded, 3).ToArray(), "same value, byte " + at + " = " + value);
                    }
                }
            }
            // The invalid bool of the first field, at the offset the span API reports.
            var bad = (byte[])bytes.Clone();
            bad[0] = 9;
            var b = Check.Fails(PktDecodeReason.InvalidBool, () => Fixed.Decode(new ReadOnlySpan<byte>(bad)), "bool 9");
            Check.Equal(0L, b.Offset, "offset of the bool");
            // Longer input: the value, then TrailingBytes after it.
            var longer = new byte[bytes.Length + 1];
            Array.Copy(bytes, longer, bytes.Length);
            var trailing = Check.Fails(PktDecodeReason.TrailingBytes, () => new Fixed().DecodeInto(new ReadOnlySpan<byte>(longer)), "trailing");
            Check.Equal((long)bytes.Length, trailing.Offset, "trailing offset");
        }

        private static PktDecodeException Error(Action decode)
        {
            try
            {
                decode();
                return null;
            }
            catch (PktDecodeException e)
            {
                return e;
            }
        }

        private static void Agree(PktDecodeException expected, PktDecodeException actual, string what)
        {
            if (expected == null)
            {
                Check.True(actual == null, what + ": decodes, but got " + (actual == null ? "" : actual.Message));
                return;
            }
            Check.True(actual != null, what + ": expected " + expected.Reason + " at " + expected.Offset + ", but it decoded");
            Check.Equal(expected.Reason, actual.Reason, what + ": reason");
            Check.Equal(expected.Offset, actual.Offset, what + ": offset");
        }

        private static void Throws<T>(Action action, string what) where T : Exception
        {
            try
            {
                action();
            }
            catch (T)
            {
                return;
            }
            catch (Exception e)
            {
                throw new AssertionException(what + ": expected " + typeof(T).Name + ", got " + e.GetType().Name + ": " + e.Message);
            }
            throw new AssertionException(what + ": expected " + typeof(T).Name + ", but nothing was thrown");
        }
    }
}
