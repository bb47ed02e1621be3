"""Oracle Spatial's object types without PostGIS (`spatial.sql`): MDSYS.SDO_GEOMETRY,
SDO_POINT_TYPE, SDO_ELEM_INFO_ARRAY and SDO_ORDINATE_ARRAY as composite types and array domains
with Oracle's attributes, in schema ``mdsys``.

Why composites and not PostGIS's ``geometry``: the embedded server has no PostGIS, and what code
and data do with these types outside spatial operators is object-type behaviour — the constructor
``SDO_GEOMETRY(2001, 8307, SDO_POINT_TYPE(x, y, NULL), NULL, NULL)``, attribute reads
(``c.loc.sdo_point.x``), storage, NULL-ness and equality — which a composite with the same
attributes keeps exactly (a ``geometry`` would need every attribute read rewritten into ST_
calls and loses SDO_GTYPE/SDO_SRID as written). Spatial operators and functions (SDO_RELATE,
SDO_GEOM.*, SDO_UTIL.*, spatial indexes) compute geometry: units that use them are reported as
needing PostGIS (`migrator.convert.supplied`).

`TYPES` declares the same types for the converter's catalog (`Catalog.supplied`), so the rules
that convert a schema's own object types (column types, constructors, attribute access,
collections) treat these alike."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from migrator.convert.schema_model import CollectionType, ObjectType, SchemaType

SPATIAL_SQL: str = Path(__file__).with_name("spatial.sql").read_text(encoding="utf-8")

OWNER = "mdsys"
# Oracle Spatial Developer's Guide, "SDO_GEOMETRY Object Type": the types as Oracle declares them
TYPES: MappingProxyType[str, SchemaType] = MappingProxyType(
    {
        "sdo_point_type": ObjectType({"x": "NUMBER", "y": "NUMBER", "z": "NUMBER"}),
        "sdo_elem_info_array": CollectionType(True, "NUMBER", 1048576),
        "sdo_ordinate_array": CollectionType(True, "NUMBER", 1048576),
        "sdo_geometry": ObjectType(
            {
                "sdo_gtype": "NUMBER",
                "sdo_srid": "NUMBER",
                "sdo_point": "MDSYS.SDO_POINT_TYPE",
                "sdo_elem_info": "MDSYS.SDO_ELEM_INFO_ARRAY",
                "sdo_ordinates": "MDSYS.SDO_ORDINATE_ARRAY",
            }
        ),
    }
)
