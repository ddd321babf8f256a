// The six ways to put a packet into a byte[] at an offset from seed article
// 004 (BitConverter.GetBytes + Array.Copy, BitConverter.TryWriteBytes,
// MemoryMarshal spans, unsafe pointer stores, bit shifts, a FieldOffset union
// struct), written as in the article, on its packets and values, beside the
// pktc-generated encoders of schemas/seed_packets.pkt: the default output
// (Seeds.Packets) and the unsafe output (UnsafeOutput.Seeds.Packets), each
// through Encode(byte[], int), the call the article makes, and Encode(Span).

using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace PktBench.Seed004
{
    public class Packet
    {
        public ushort size;
        public ushort id;

        public Packet(ushort id)
        {
            this.id = id;
            this.size = sizeof(ushort) * 2;
        }
    }

    public class Int3Packet : Packet
    {
        public int x, y, z;

        public Int3Packet(ushort id, int x, int y, int z) : base(id)
        {
            this.x = x;
            this.y = y;
            this.z = z;
            this.size = sizeof(ushort) * 2 + sizeof(int) * 3;
        }
    }

    public class TransformPacket : Packet
    {
        public float posX, posY, posZ;
        public float rotX, rotY, rotZ;
        public float scaleX, scaleY, scaleZ;

        public TransformPacket(ushort id) : base(id)
        {
            this.size = sizeof(ushort) * 2 + sizeof(float) * 9;
        }
    }

    [StructLayout(LayoutKind.Explicit)]
    public struct UnionUshortByte2
    {
        [FieldOffset(0)] public ushort value;
        [FieldOffset(0)] public byte byte0;
        [FieldOffset(1)] public byte byte1;

        public byte this[int index]
        {
            get
            {
                switch (index)
                {
                    case 0: return byte0;
                    case 1: return byte1;
                    default: throw new IndexOutOfRangeException();
                }
            }
        }

        public static UnionUshortByte2 New(ushort value)
        {
            return new UnionUshortByte2() { value = value };
        }
    }

    [StructLayout(LayoutKind.Explicit)]
    public struct UnionIntByte4
    {
        [FieldOffset(0)] public int value;
        [FieldOffset(0)] public byte byte0;
        [FieldOffset(1)] public byte byte1;
        [FieldOffset(2)] public byte byte2;
        [FieldOffset(3)] public byte byte3;

        public byte this[int index]
        {
            get
            {
                switch (index)
                {
                    case 0: return byte0;
                    case 1: return byte1;
                    case 2: return byte2;
                    case 3: return byte3;
                    default: throw new IndexOutOfRangeException();
                }
            }
        }

        public static UnionIntByte4 New(int value)
        {
            return new UnionIntByte4() { value = value };
        }
    }

    [StructLayout(LayoutKind.Explicit)]
    public struct UnionFloatByte4
    {
        [FieldOffset(0)] public float floatValue;
        [FieldOffset(0)] public byte byte0;
        [FieldOffset(1)] public byte byte1;
        [FieldOffset(2)] public byte byte2;
        [FieldOffset(3)] public byte byte3;

        public byte this[int index]
        {
            get
            {
                switch (index)
                {
                    case 0: return byte0;
                    case 1: return byte1;
                    case 2: return byte2;
                    case 3: return byte3;
                    default: throw new IndexOutOfRangeException();
                }
            }
        }

        public static UnionFloatByte4 New(float value)
        {
            return new UnionFloatByte4() { floatValue = value };
        }
    }

    /// <summary>The article's serialization helpers and benchmark bodies.</summary>
    public static class Methods
    {
        const int USHORT_SIZE = sizeof(ushort);
        const int INT_SIZE = sizeof(int);
        const int FLOAT_SIZE = sizeof(float);

        public static byte[] buffer = new byte[1024];
        // Fields, as in the article (its benchmark class's `int offset = 100;`),
        // not constants the JIT could fold into every store.
        public static int offset = 100;

        public static Packet packet = new Packet(1234);
        public static Int3Packet int3Packet = new Int3Packet(2345, 10, 102030, 99999999);
        public static TransformPacket trPacket = new TransformPacket(3456)
        {
            posX = 1.1f, posY = 2.2f, posZ = 3.3f,
            rotX = 123.456f, rotY = 234.567f, rotZ = 345.678f,
            scaleX = 10000f, scaleY = 20000f, scaleZ = 30000f,
        };

        // pktc-generated structs with the same values.
        public static Seeds.Packets.Packet pkPacket = new Seeds.Packets.Packet { Size = 4, Id = 1234 };
        public static Seeds.Packets.Int3Packet pkInt3 = new Seeds.Packets.Int3Packet
        {
            Size = 16, Id = 2345, X = 10, Y = 102030, Z = 99999999,
        };
        public static Seeds.Packets.TransformPacket pkTransform = new Seeds.Packets.TransformPacket
        {
            Size = 40, Id = 3456,
            PosX = 1.1f, PosY = 2.2f, PosZ = 3.3f,
            RotX = 123.456f, RotY = 234.567f, RotZ = 345.678f,
            ScaleX = 10000f, ScaleY = 20000f, ScaleZ = 30000f,
        };

        // The same values in the unsafe output's structs.
        public static UnsafeOutput.Seeds.Packets.Packet fastPacket = new UnsafeOutput.Seeds.Packets.Packet { Size = 4, Id = 1234 };
        public static UnsafeOutput.Seeds.Packets.Int3Packet fastInt3 = new UnsafeOutput.Seeds.Packets.Int3Packet
        {
            Size = 16, Id = 2345, X = 10, Y = 102030, Z = 99999999,
        };
        public static UnsafeOutput.Seeds.Packets.TransformPacket fastTransform = new UnsafeOutput.Seeds.Packets.TransformPacket
        {
            Size = 40, Id = 3456,
            PosX = 1.1f, PosY = 2.2f, PosZ = 3.3f,
            RotX = 123.456f, RotY = 234.567f, RotZ = 345.678f,
            ScaleX = 10000f, ScaleY = 20000f, ScaleZ = 30000f,
        };

        static readonly int[] UshortOffsetLookup = { 0, 8 };
        static readonly int[] IntOffsetLookup = { 0, 8, 16, 24 };

        // [1] BitConverter.GetBytes + Array.Copy
        static void Serialize_GetBytes(byte[] buffer, int offset, ushort data)
        {
            byte[] result = BitConverter.GetBytes(data);
            Array.Copy(result, 0, buffer, offset, sizeof(ushort));
        }
        static void Serialize_GetBytes(byte[] buffer, int offset, float data)
        {
            byte[] result = BitConverter.GetBytes(data);
            Array.Copy(result, 0, buffer, offset, sizeof(float));
        }
        static void Serialize_GetBytes(byte[] buffer, int offset, int data)
        {
            byte[] result = BitConverter.GetBytes(data);
            Array.Copy(result, 0, buffer, offset, sizeof(int));
        }

        // [2] BitConverter.TryWriteBytes
        static void Serialize_TryWriteBytes(byte[] buffer, int offset, ushort data)
        {
            BitConverter.TryWriteBytes(new Span<byte>(buffer, offset, sizeof(ushort)), data);
        }
        static void Serialize_TryWriteBytes(byte[] buffer, int offset, int data)
        {
            BitConverter.TryWriteBytes(new Span<byte>(buffer, offset, sizeof(int)), data);
        }
        static void Serialize_TryWriteBytes(byte[] buffer, int offset, float data)
        {
            BitConverter.TryWriteBytes(new Span<byte>(buffer, offset, sizeof(float)), data);
        }

        // [3] Span + MemoryMarshal (the article's improved variant, used for
        // its final re-run; the stackalloc-initializer variant needs C# 7.3)
        static void Serialize_Span(byte[] buffer, int offset, ushort data)
        {
            ReadOnlySpan<ushort> span = MemoryMarshal.CreateReadOnlySpan(ref data, 1);
            ReadOnlySpan<byte> bSpan = MemoryMarshal.Cast<ushort, byte>(span);
            bSpan.CopyTo(new Span<byte>(buffer, offset, sizeof(ushort)));
        }
        static void Serialize_Span(byte[] buffer, int offset, int data)
        {
            ReadOnlySpan<int> span = MemoryMarshal.CreateReadOnlySpan(ref data, 1);
            ReadOnlySpan<byte> bSpan = MemoryMarshal.Cast<int, byte>(span);
            bSpan.CopyTo(new Span<byte>(buffer, offset, sizeof(int)));
        }
        static void Serialize_Span(byte[] buffer, int offset, float data)
        {
            ReadOnlySpan<float> span = MemoryMarshal.CreateReadOnlySpan(ref data, 1);
            ReadOnlySpan<byte> bSpan = MemoryMarshal.Cast<float, byte>(span);
            bSpan.CopyTo(new Span<byte>(buffer, offset, sizeof(float)));
        }

        // [4] unsafe pointer stores
        static unsafe void Serialize_Unsafe(byte[] buffer, int offset, ushort data)
        {
            fixed (byte* bPtr = &buffer[offset])
            {
                *(ushort*)bPtr = data;
            }
        }
        static unsafe void Serialize_Unsafe(byte[] buffer, int offset, int data)
        {
            fixed (byte* bPtr = &buffer[offset])
            {
                *(int*)bPtr = data;
            }
        }
        static unsafe void Serialize_Unsafe(byte[] buffer, int offset, float data)
        {
            fixed (byte* bPtr = &buffer[offset])
            {
                *(float*)bPtr = data;
            }
        }

        // [5] bit shifts (integers only)
        static void Serialize_BitCalculation(byte[] buffer, int offset, ushort data)
        {
            for (int i = 0; i < sizeof(ushort); i++)
            {
                buffer[offset + i] = (byte)(data >> UshortOffsetLookup[i]);
            }
        }
        static void Serialize_BitCalculation(byte[] buffer, int offset, int data)
        {
            for (int i = 0; i < sizeof(int); i++)
            {
                buffer[offset + i] = (byte)(data >> IntOffsetLookup[i]);
            }
        }

        // [6] union struct
        static void Serialize_UnionStruct(byte[] buffer, int offset, ushort data)
        {
            UnionUshortByte2 bytes = UnionUshortByte2.New(data);
            for (int i = 0; i < sizeof(ushort); i++)
            {
                buffer[offset + i] = bytes[i];
            }
        }
        static void Serialize_UnionStruct(byte[] buffer, int offset, int data)
        {
            UnionIntByte4 bytes = UnionIntByte4.New(data);
            for (int i = 0; i < sizeof(int); i++)
            {
                buffer[offset + i] = bytes[i];
            }
        }
        static void Serialize_UnionStruct(byte[] buffer, int offset, float data)
        {
            UnionFloatByte4 bytes = UnionFloatByte4.New(data);
            for (int i = 0; i < sizeof(float); i++)
            {
                buffer[offset + i] = bytes[i];
            }
        }

        // ---- Packet ----
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void GetBytes_1()
        {
            Serialize_GetBytes(buffer, offset, packet.size);
            Serialize_GetBytes(buffer, offset + USHORT_SIZE, packet.id);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void TryWriteBytes_1()
        {
            Serialize_TryWriteBytes(buffer, offset, packet.size);
            Serialize_TryWriteBytes(buffer, offset + USHORT_SIZE, packet.id);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Span_1()
        {
            Serialize_Span(buffer, offset, packet.size);
            Serialize_Span(buffer, offset + USHORT_SIZE, packet.id);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Unsafe_1()
        {
            Serialize_Unsafe(buffer, offset, packet.size);
            Serialize_Unsafe(buffer, offset + USHORT_SIZE, packet.id);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void BitCalculation_1()
        {
            Serialize_BitCalculation(buffer, offset, packet.size);
            Serialize_BitCalculation(buffer, offset + USHORT_SIZE, packet.id);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void UnionStruct_1()
        {
            Serialize_UnionStruct(buffer, offset, packet.size);
            Serialize_UnionStruct(buffer, offset + USHORT_SIZE, packet.id);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Pktc_1()
        {
            pkPacket.Encode(buffer, offset);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcSpan_1()
        {
            pkPacket.Encode(buffer.AsSpan(offset));
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafe_1()
        {
            fastPacket.Encode(buffer, offset);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafeSpan_1()
        {
            fastPacket.Encode(buffer.AsSpan(offset));
        }

        // ---- Int3Packet ----
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void GetBytes_2()
        {
            int cur = 0;
            Serialize_GetBytes(buffer, offset, int3Packet.size); cur += USHORT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, int3Packet.id); cur += USHORT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, int3Packet.x); cur += INT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, int3Packet.y); cur += INT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, int3Packet.z);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void TryWriteBytes_2()
        {
            int cur = 0;
            Serialize_TryWriteBytes(buffer, offset, int3Packet.size); cur += USHORT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, int3Packet.id); cur += USHORT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, int3Packet.x); cur += INT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, int3Packet.y); cur += INT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, int3Packet.z);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Span_2()
        {
            int cur = 0;
            Serialize_Span(buffer, offset, int3Packet.size); cur += USHORT_SIZE;
            Serialize_Span(buffer, offset + cur, int3Packet.id); cur += USHORT_SIZE;
            Serialize_Span(buffer, offset + cur, int3Packet.x); cur += INT_SIZE;
            Serialize_Span(buffer, offset + cur, int3Packet.y); cur += INT_SIZE;
            Serialize_Span(buffer, offset + cur, int3Packet.z);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Unsafe_2()
        {
            int cur = 0;
            Serialize_Unsafe(buffer, offset, int3Packet.size); cur += USHORT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, int3Packet.id); cur += USHORT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, int3Packet.x); cur += INT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, int3Packet.y); cur += INT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, int3Packet.z);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void BitCalculation_2()
        {
            int cur = 0;
            Serialize_BitCalculation(buffer, offset, int3Packet.size); cur += USHORT_SIZE;
            Serialize_BitCalculation(buffer, offset + cur, int3Packet.id); cur += USHORT_SIZE;
            Serialize_BitCalculation(buffer, offset + cur, int3Packet.x); cur += INT_SIZE;
            Serialize_BitCalculation(buffer, offset + cur, int3Packet.y); cur += INT_SIZE;
            Serialize_BitCalculation(buffer, offset + cur, int3Packet.z);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void UnionStruct_2()
        {
            int cur = 0;
            Serialize_UnionStruct(buffer, offset, int3Packet.size); cur += USHORT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, int3Packet.id); cur += USHORT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, int3Packet.x); cur += INT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, int3Packet.y); cur += INT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, int3Packet.z);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Pktc_2()
        {
            pkInt3.Encode(buffer, offset);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcSpan_2()
        {
            pkInt3.Encode(buffer.AsSpan(offset));
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafe_2()
        {
            fastInt3.Encode(buffer, offset);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafeSpan_2()
        {
            fastInt3.Encode(buffer.AsSpan(offset));
        }

        // ---- TransformPacket (no bit-shift variant: it does not apply to floats) ----
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void GetBytes_3()
        {
            int cur = 0;
            Serialize_GetBytes(buffer, offset, trPacket.size); cur += USHORT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, trPacket.id); cur += USHORT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, trPacket.posX); cur += FLOAT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, trPacket.posY); cur += FLOAT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, trPacket.posZ); cur += FLOAT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, trPacket.rotX); cur += FLOAT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, trPacket.rotY); cur += FLOAT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, trPacket.rotZ); cur += FLOAT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, trPacket.scaleX); cur += FLOAT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, trPacket.scaleY); cur += FLOAT_SIZE;
            Serialize_GetBytes(buffer, offset + cur, trPacket.scaleZ);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void TryWriteBytes_3()
        {
            int cur = 0;
            Serialize_TryWriteBytes(buffer, offset, trPacket.size); cur += USHORT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, trPacket.id); cur += USHORT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, trPacket.posX); cur += FLOAT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, trPacket.posY); cur += FLOAT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, trPacket.posZ); cur += FLOAT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, trPacket.rotX); cur += FLOAT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, trPacket.rotY); cur += FLOAT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, trPacket.rotZ); cur += FLOAT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, trPacket.scaleX); cur += FLOAT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, trPacket.scaleY); cur += FLOAT_SIZE;
            Serialize_TryWriteBytes(buffer, offset + cur, trPacket.scaleZ);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Span_3()
        {
            int cur = 0;
            Serialize_Span(buffer, offset, trPacket.size); cur += USHORT_SIZE;
            Serialize_Span(buffer, offset + cur, trPacket.id); cur += USHORT_SIZE;
            Serialize_Span(buffer, offset + cur, trPacket.posX); cur += FLOAT_SIZE;
            Serialize_Span(buffer, offset + cur, trPacket.posY); cur += FLOAT_SIZE;
            Serialize_Span(buffer, offset + cur, trPacket.posZ); cur += FLOAT_SIZE;
            Serialize_Span(buffer, offset + cur, trPacket.rotX); cur += FLOAT_SIZE;
            Serialize_Span(buffer, offset + cur, trPacket.rotY); cur += FLOAT_SIZE;
            Serialize_Span(buffer, offset + cur, trPacket.rotZ); cur += FLOAT_SIZE;
            Serialize_Span(buffer, offset + cur, trPacket.scaleX); cur += FLOAT_SIZE;
            Serialize_Span(buffer, offset + cur, trPacket.scaleY); cur += FLOAT_SIZE;
            Serialize_Span(buffer, offset + cur, trPacket.scaleZ);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Unsafe_3()
        {
            int cur = 0;
            Serialize_Unsafe(buffer, offset, trPacket.size); cur += USHORT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, trPacket.id); cur += USHORT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, trPacket.posX); cur += FLOAT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, trPacket.posY); cur += FLOAT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, trPacket.posZ); cur += FLOAT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, trPacket.rotX); cur += FLOAT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, trPacket.rotY); cur += FLOAT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, trPacket.rotZ); cur += FLOAT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, trPacket.scaleX); cur += FLOAT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, trPacket.scaleY); cur += FLOAT_SIZE;
            Serialize_Unsafe(buffer, offset + cur, trPacket.scaleZ);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void UnionStruct_3()
        {
            int cur = 0;
            Serialize_UnionStruct(buffer, offset, trPacket.size); cur += USHORT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, trPacket.id); cur += USHORT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, trPacket.posX); cur += FLOAT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, trPacket.posY); cur += FLOAT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, trPacket.posZ); cur += FLOAT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, trPacket.rotX); cur += FLOAT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, trPacket.rotY); cur += FLOAT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, trPacket.rotZ); cur += FLOAT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, trPacket.scaleX); cur += FLOAT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, trPacket.scaleY); cur += FLOAT_SIZE;
            Serialize_UnionStruct(buffer, offset + cur, trPacket.scaleZ);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Pktc_3()
        {
            pkTransform.Encode(buffer, offset);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcSpan_3()
        {
            pkTransform.Encode(buffer.AsSpan(offset));
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafe_3()
        {
            fastTransform.Encode(buffer, offset);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafeSpan_3()
        {
            fastTransform.Encode(buffer.AsSpan(offset));
        }

        /// <summary>The loop and call overhead every row pays, measured on its own.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Empty()
        {
        }
    }
}
