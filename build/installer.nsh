; Included by electron-builder's NSIS installer (nsis.include in build/electron-builder.config.ts).
; Registers the loyalty-till:// link protocol (docs/pos-integration.md), which electron-builder's
; NSIS target does not do itself. SHELL_CONTEXT is HKLM for "anyone who uses this computer"
; and HKCU for "only for me", matching where the app was installed.
; The link is one quoted argument after `--` (the end of switches), so it can never add a switch.
;
; It also opens the shop ledger's ports in Windows Defender Firewall (docs/shop-ledger.md): TCP
; 47231 (the default port in Settings) and UDP 5353 (mDNS discovery), for this program only,
; on private networks only, and from the local subnet only. netsh needs an administrator: a
; per-user install cannot add the rules, and Windows asks the first time the app listens.

; Defined before use: NSIS expands macros as it reads them.
!macro removeShopLedgerRules
  nsExec::ExecToLog 'netsh advfirewall firewall delete rule name="Loyalty Till shop ledger"'
  Pop $0
  nsExec::ExecToLog 'netsh advfirewall firewall delete rule name="Loyalty Till discovery"'
  Pop $0
!macroend

!macro customInstall
  DeleteRegKey SHELL_CONTEXT "Software\Classes\loyalty-till"
  WriteRegStr SHELL_CONTEXT "Software\Classes\loyalty-till" "" "URL:Loyalty Till link"
  WriteRegStr SHELL_CONTEXT "Software\Classes\loyalty-till" "URL Protocol" ""
  WriteRegStr SHELL_CONTEXT "Software\Classes\loyalty-till\DefaultIcon" "" "$appExe,0"
  WriteRegStr SHELL_CONTEXT "Software\Classes\loyalty-till\shell\open\command" "" '"$appExe" -- "%1"'
  !insertmacro removeShopLedgerRules
  nsExec::ExecToLog 'netsh advfirewall firewall add rule name="Loyalty Till shop ledger" dir=in action=allow program="$appExe" enable=yes protocol=TCP localport=47231 profile=private remoteip=localsubnet'
  Pop $0
  nsExec::ExecToLog 'netsh advfirewall firewall add rule name="Loyalty Till discovery" dir=in action=allow program="$appExe" enable=yes protocol=UDP localport=5353 profile=private remoteip=localsubnet'
  Pop $0
!macroend

!macro customUnInstall
  ; An update runs the old uninstaller first: keep the protocol, the new version rewrites it.
  ${ifNot} ${isUpdated}
    DeleteRegKey SHELL_CONTEXT "Software\Classes\loyalty-till"
    !insertmacro removeShopLedgerRules
  ${endIf}
!macroend
