CREATE OR REPLACE FUNCTION clob_to_blob (p_clob IN CLOB) RETURN BLOB IS
  l_blob         BLOB;
  l_dest_offset  INTEGER := 1;
  l_src_offset   INTEGER := 1;
  l_lang_context INTEGER := DBMS_LOB.DEFAULT_LANG_CTX;
  l_warning      INTEGER;
BEGIN
  DBMS_LOB.CREATETEMPORARY(l_blob, TRUE);
  DBMS_LOB.CONVERTTOBLOB(dest_lob => l_blob, src_clob => p_clob, amount => DBMS_LOB.LOBMAXSIZE,
                         dest_offset => l_dest_offset, src_offset => l_src_offset,
                         blob_csid => DBMS_LOB.DEFAULT_CSID, lang_context => l_lang_context, warning => l_warning);
  IF l_warning = DBMS_LOB.WARN_INCONVERTIBLE_CHAR THEN
    RAISE_APPLICATION_ERROR(-20001, 'inconvertible character');
  END IF;
  RETURN l_blob;
END clob_to_blob;
/
